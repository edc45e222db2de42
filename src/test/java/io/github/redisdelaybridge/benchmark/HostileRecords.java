package io.github.redisdelaybridge.benchmark;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * The hostile records of the hostile scenario: headers a careless or malicious producer can send, built to make
 * header parsing slow (digits and a letter, which a backtracking regular expression takes quadratic time over), large
 * (values up to 1 MiB; records past bridge.payload.max-bytes, refused by size before their headers are read, except
 * control messages, whose size is not checked) or ambiguous (control characters, bytes that are not UTF-8, digits of
 * other scripts, numbers past any long, line breaks in an id, both delay headers, repeated headers). Each kind has the
 * x-dead-letter-reason the header contract (README) gives it. Kinds that need a valid x-target name a topic of their
 * own, so that a record the bridge accepts is counted there, not among the valid messages.
 */
final class HostileRecords {

    static final int MIB = 1 << 20;
    /** The x-delay digits of the backtracking case: a 120,000-digit one kept a partition busy for about 40 s. */
    static final int BACKTRACKING_DIGITS = 120_000;

    /** One kind of hostile record: its name, the reason it must be dead-lettered with, and its share of {@link #cycle()}. */
    record Kind(String name, String reason, int weight, Headers headers) {
    }

    /** The headers of the {@code serial}th hostile record (serials make ids and targets distinct). */
    interface Headers {
        List<Header> of(int serial);
    }

    private final List<Kind> kinds;
    private final Kind[] cycle;

    /**
     * @param target          a valid x-target (kafka:topic) for the kinds whose fault lies elsewhere
     * @param payloadMaxBytes the bridge's bridge.payload.max-bytes: the records meant to exceed it do
     */
    HostileRecords(String target, long payloadMaxBytes) {
        byte[] backtracking = ascii("1".repeat(BACKTRACKING_DIGITS) + "x");
        byte[] mibDelay = ascii("9".repeat(MIB - 1) + "x");
        // 1 MiB values, as many as it takes to pass the maximum and the 64 KiB the bridge allows dead letters beyond it
        int pastMax = (int) ((payloadMaxBytes + 64 * 1024) / MIB) + 1;
        byte[] validTarget = ascii(target);
        kinds = List.of(
                new Kind("x-delay of 120,000 digits and a letter", "invalid-delay", 4,
                        n -> List.of(header("x-delay", backtracking), header("x-target", validTarget))),
                new Kind("x-delay of 1 MiB", "invalid-delay", 1,
                        n -> List.of(header("x-delay", mibDelay), header("x-target", validTarget))),
                new Kind(pastMax + " x-delay headers of 1 MiB (past the maximum payload)", "payload-too-large", 1,
                        n -> repeated("x-delay", mibDelay, pastMax, header("x-target", validTarget))),
                new Kind("x-control: reschedule with " + pastMax + " x-delay headers of 1 MiB (size not checked)", "invalid-delay", 1,
                        n -> repeated("x-delay", mibDelay, pastMax, header("x-control", ascii("reschedule")),
                                header("x-message-id", ascii("hostile-control-" + n)))),
                new Kind("x-control of 1 MiB", "invalid-control", 1,
                        n -> List.of(header("x-control", ascii("x".repeat(MIB))), header("x-message-id", ascii("hostile-control-" + n)))),
                new Kind("x-target of 1 MB", "invalid-target", 1,
                        n -> List.of(header("x-delay", ascii("1000")), header("x-target", ascii("kafka:" + "t".repeat(1_000_000))))),
                new Kind("x-target of 1 KiB, each distinct", "invalid-target", 20,
                        n -> List.of(header("x-delay", ascii("1000")), header("x-target", ascii(padded("kafka:hostile-" + n + "-", 1024))))),
                new Kind("x-delay with control characters", "invalid-delay", 10,
                        n -> delay(ascii(pick(n, "10\u000000", "1\r\n000", "100\u001b[0m0", "10\t00", "1000\u0000x-target: kafka:elsewhere")),
                                validTarget)),
                new Kind("x-delay not UTF-8", "invalid-delay", 10,
                        n -> delay(pick(n, bytes('1', 0xC3, '(', '0'), bytes(0xFF, 0xFE, '1'), bytes(0xC0, 0xB1, '0', '0', '0'),
                                bytes('1', 0xED, 0xA0, 0x80), bytes('1', '0', 0xE2, 0x82)), validTarget)),
                new Kind("x-delay of non-ASCII digits", "invalid-delay", 10,
                        n -> delay(utf8(pick(n, "\u0661\u0660\u0660\u0660", "\uFF11\uFF10\uFF10\uFF10", "\u06F1\u06F0\u06F0\u06F0",
                                "\uD835\uDFCF\uD835\uDFCE\uD835\uDFCE\uD835\uDFCE", "PT\uFF11S")), validTarget)),
                new Kind("x-delay past any number (PT99999999999999999999H, 1e999999999)", "invalid-delay", 10,
                        n -> delay(ascii(pick(n, "PT99999999999999999999H", "P99999999999999999999D", "PT9223372036854775807H",
                                "1e999999999", "PT1E999S")), validTarget)),
                new Kind("x-message-id with line breaks", "invalid-message-id", 10,
                        n -> List.of(header("x-delay", ascii("1000")), header("x-target", validTarget),
                                header("x-message-id", utf8(pick(n, "hostile-" + n + "\r\nERROR forged log line", "hostile-\n" + n,
                                        "hostile-\u2028" + n, "hostile-\u0085" + n, "hostile-" + n + "\rx"))))),
                new Kind("x-delay and x-deliver-at", "conflicting-delay", 10,
                        n -> List.of(header("x-delay", ascii("1000")), header("x-deliver-at", ascii(Long.toString(System.currentTimeMillis() + 1000))),
                                header("x-target", validTarget))),
                new Kind("500 x-target and 501 x-delay headers, the last x-delay invalid", "invalid-delay", 11,
                        n -> {
                            List<Header> headers = new ArrayList<>(repeated("x-target", validTarget, 500));
                            headers.addAll(repeated("x-delay", ascii("1000"), 500, header("x-delay", ascii("soon"))));
                            return headers;
                        }));
        cycle = spread(kinds);
    }

    List<Kind> kinds() {
        return kinds;
    }

    /** The kind of the {@code serial}th hostile record: every kind by its weight, spread out so the large ones are not adjacent. */
    Kind kind(int serial) {
        return cycle[serial % cycle.length];
    }

    /** Hostile records in one round of every kind. */
    int cycle() {
        return cycle.length;
    }

    /** Smooth weighted round robin: each turn goes to the kind furthest behind its share. */
    private static Kind[] spread(List<Kind> kinds) {
        int total = kinds.stream().mapToInt(Kind::weight).sum();
        int[] credit = new int[kinds.size()];
        Kind[] order = new Kind[total];
        for (int turn = 0; turn < total; turn++) {
            int best = 0;
            for (int k = 0; k < kinds.size(); k++) {
                credit[k] += kinds.get(k).weight();
                if (credit[k] > credit[best]) {
                    best = k;
                }
            }
            credit[best] -= total;
            order[turn] = kinds.get(best);
        }
        return order;
    }

    private static List<Header> delay(byte[] value, byte[] target) {
        return List.of(header("x-delay", value), header("x-target", target));
    }

    private static List<Header> repeated(String name, byte[] value, int times, Header... after) {
        List<Header> headers = new ArrayList<>(times + after.length);
        for (int i = 0; i < times; i++) {
            headers.add(header(name, value));
        }
        headers.addAll(Arrays.asList(after));
        return headers;
    }

    @SafeVarargs
    private static <T> T pick(int serial, T... values) {
        return values[serial % values.length];
    }

    private static String padded(String start, int length) {
        return start + "a".repeat(Math.max(0, length - start.length()));
    }

    private static Header header(String name, byte[] value) {
        return new RecordHeader(name, value);
    }

    private static byte[] bytes(int... values) {
        byte[] out = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = (byte) values[i];
        }
        return out;
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
