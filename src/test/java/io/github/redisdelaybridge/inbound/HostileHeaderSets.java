package io.github.redisdelaybridge.inbound;

import io.github.redisdelaybridge.message.HeaderNames;
import io.github.redisdelaybridge.message.MessageHeader;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Seeded header sets a hostile or careless producer could send: every header the bridge reads, valid values next to
 * long digit runs ending in a letter, padded numbers, signs and separators, huge exponents and durations, non-ASCII
 * digits, control characters, invalid UTF-8, null values, repeated headers and values up to 1 MiB, as Kafka (raw bytes)
 * or RabbitMQ (typed AMQP) headers.
 */
final class HostileHeaderSets {

    static final int MIB = 1 << 20;

    private static final List<String> NAMES = List.of(HeaderNames.DELAY, HeaderNames.DELIVER_AT, HeaderNames.CONTROL,
            HeaderNames.TARGET, HeaderNames.MESSAGE_ID, "trace", "X-Delay", "x-delay ");
    /** Arabic-Indic, extended Arabic-Indic, Devanagari, fullwidth and mathematical bold digits: all digits to Character.isDigit. */
    private static final String[] FOREIGN_ZEROS = {"\u0660", "\u06F0", "\u0966", "\uFF10", "\uD835\uDFCE"};

    /** Random characters made for one value at most; a longer value repeats them. */
    private static final int BLOCK = 1_000;

    private final Random random;

    HostileHeaderSets(long seed) {
        this.random = new Random(seed);
    }

    /** The hand-picked cases, by name: each is known to have cost, or to be likely to cost, more than linear time. */
    static Map<String, List<MessageHeader>> named() {
        String target = "kafka:orders.a";
        Map<String, List<MessageHeader>> cases = new LinkedHashMap<>();
        cases.put("120,000 digits then x", List.of(text(HeaderNames.DELAY, "1".repeat(120_000) + "x"), text(HeaderNames.TARGET, target)));
        cases.put("1 MiB of digits then x", List.of(text(HeaderNames.DELAY, "9".repeat(MIB) + "x"), text(HeaderNames.TARGET, target)));
        cases.put("1 MiB deliver-at digits then x", List.of(text(HeaderNames.DELIVER_AT, "7".repeat(MIB) + "x"), text(HeaderNames.TARGET, target)));
        cases.put("control reschedule, 1 MiB delay", List.of(text(HeaderNames.CONTROL, "reschedule"), text(HeaderNames.MESSAGE_ID, "m-1"),
                text(HeaderNames.DELAY, "5".repeat(MIB) + "x")));
        cases.put("control replace, 1 MiB target", List.of(text(HeaderNames.CONTROL, "replace"), text(HeaderNames.MESSAGE_ID, "m-1"),
                text(HeaderNames.DELAY, "10"), text(HeaderNames.TARGET, "kafka:" + "a".repeat(MIB))));
        cases.put("1 MiB group", List.of(text(HeaderNames.DELAY, "10"), text(HeaderNames.TARGET, target), text(HeaderNames.GROUP, "g".repeat(MIB))));
        cases.put("cancel-group, 1 MiB group", List.of(text(HeaderNames.CONTROL, "cancel-group"), text(HeaderNames.GROUP, "g".repeat(MIB))));
        cases.put("1 MiB control action", List.of(text(HeaderNames.CONTROL, "c".repeat(MIB)), text(HeaderNames.MESSAGE_ID, "m-1")));
        cases.put("digits, dots and commas then x", List.of(text(HeaderNames.DELAY, "1.2,3".repeat(40_000) + "x"), text(HeaderNames.TARGET, target)));
        cases.put("duration with 100,000 digits", List.of(text(HeaderNames.DELAY, "PT" + "9".repeat(100_000) + "S"), text(HeaderNames.TARGET, target)));
        cases.put("zero-padded delay", List.of(text(HeaderNames.DELAY, "0".repeat(200) + "1500"), text(HeaderNames.TARGET, target)));
        cases.put("1 MiB target of a's", List.of(text(HeaderNames.DELAY, "10"), text(HeaderNames.TARGET, "kafka:" + "a".repeat(MIB))));
        cases.put("topic of a's against a glob of many stars", List.of(text(HeaderNames.DELAY, "10"),
                text(HeaderNames.TARGET, "kafka:" + "a".repeat(249))));
        cases.put("routing key of a's against a glob of many stars", List.of(text(HeaderNames.DELAY, "10"),
                text(HeaderNames.TARGET, "rabbitmq:" + "a".repeat(255) + "/" + "a".repeat(255))));
        cases.put("1 MiB message id", List.of(text(HeaderNames.DELAY, "10"), text(HeaderNames.TARGET, target),
                text(HeaderNames.MESSAGE_ID, "i".repeat(MIB))));
        cases.put("1 MiB of invalid UTF-8 delay", List.of(new MessageHeader(HeaderNames.DELAY, filled(MIB, (byte) 0x80)),
                text(HeaderNames.TARGET, target)));
        return cases;
    }

    /** One to six headers, most of them ones the bridge reads, some repeated. */
    List<MessageHeader> next() {
        int count = 1 + random.nextInt(6);
        List<MessageHeader> headers = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String name = random.nextInt(10) == 0 ? NAMES.get(5 + random.nextInt(3)) : NAMES.get(random.nextInt(5));
            headers.add(random.nextInt(8) == 0 ? amqpHeader(name) : new MessageHeader(name, value(name)));
        }
        return headers;
    }

    private byte[] value(String name) {
        return switch (random.nextInt(14)) {
            case 0, 1 -> utf8(plausible(name));
            case 2 -> utf8(digits(length()) + letter());
            case 3 -> utf8(random.nextBoolean() ? "0".repeat(length()) + "1500" : " ".repeat(length()) + "1500" + " ".repeat(random.nextInt(3)));
            case 4 -> utf8(signsAndSeparators(length()) + (random.nextBoolean() ? letter() : ""));
            case 5 -> utf8(duration());
            case 6 -> utf8(instant());
            case 7 -> utf8(foreignDigits(length()));
            case 8 -> utf8(withControlCharacters(plausible(name)));
            case 9 -> invalidUtf8();
            case 10 -> utf8(exponent());
            case 11 -> random.nextBoolean() ? null : utf8(random.nextBoolean() ? "" : " \t ");
            case 12 -> utf8(targetLike());
            default -> utf8(random.nextBoolean() ? idLike() : controlLike());
        };
    }

    /** Mostly short, some up to 200,000, one in a hundred about 1 MiB. */
    private int length() {
        int roll = random.nextInt(100);
        if (roll == 0) {
            return MIB - random.nextInt(1_000);
        }
        if (roll < 10) {
            return 1_000 + random.nextInt(200_000);
        }
        return 1 + random.nextInt(roll < 40 ? 1_000 : 80);
    }

    private String plausible(String name) {
        return switch (name) {
            case HeaderNames.DELAY -> random.nextBoolean() ? Integer.toString(random.nextInt(100_000)) : "PT" + random.nextInt(60) + "." + random.nextInt(999) + "S";
            case HeaderNames.DELIVER_AT -> random.nextBoolean() ? Long.toString(1_700_000_000_000L + random.nextInt(1_000_000)) : "2026-12-01T10:00:00Z";
            case HeaderNames.CONTROL -> controlLike();
            case HeaderNames.TARGET -> random.nextBoolean() ? "kafka:orders." + random.nextInt(50) : "rabbitmq:billing/" + random.nextInt(50);
            default -> idLike();
        };
    }

    private String digits(int length) {
        char[] digits = new char[Math.min(length, BLOCK)];
        for (int i = 0; i < digits.length; i++) {
            digits[i] = (char) ('0' + random.nextInt(10));
        }
        return stretch(new String(digits), length);
    }

    /** A long text as a random block repeated: as hostile to a parser, and far cheaper to make than all random. */
    private static String stretch(String block, int length) {
        return block.length() >= length ? block : block.repeat(length / block.length() + 1).substring(0, length);
    }

    private char letter() {
        return "xXeEsSdDPT!".charAt(random.nextInt(11));
    }

    private String signsAndSeparators(int length) {
        char[] text = new char[Math.min(length, BLOCK)];
        for (int i = 0; i < text.length; i++) {
            // mostly digits, so that runs of them sit between the signs and separators
            text[i] = random.nextInt(4) == 0 ? "+-.,".charAt(random.nextInt(4)) : (char) ('0' + random.nextInt(10));
        }
        return stretch(new String(text), length);
    }

    private String duration() {
        String big = digits(1 + random.nextInt(random.nextInt(10) == 0 ? 200_000 : 40));
        return switch (random.nextInt(7)) {
            case 0 -> "PT" + big + "S";
            case 1 -> "P" + big + "D";
            case 2 -> "PT1." + big + "S";
            case 3 -> "-PT" + big + "H";
            case 4 -> "P" + big + "DT" + big + "H" + big + "M" + big + "S";
            case 5 -> "PT" + "1M".repeat(1 + random.nextInt(1_000));
            default -> "pt" + big + "s" + letter();
        };
    }

    private String instant() {
        return switch (random.nextInt(6)) {
            case 0 -> "+999999999-12-31T23:59:59.999999999Z";
            case 1 -> "-999999999-01-01T00:00:00Z";
            case 2 -> digits(1 + random.nextInt(5_000)) + "-12-01T10:00:00Z";
            case 3 -> "2026-12-01T10:00:00." + digits(1 + random.nextInt(5_000)) + "Z";
            case 4 -> "2026-12-01T10:00:00+" + digits(1 + random.nextInt(40)) + ":00";
            default -> "1969-12-31T23:59:59.999Z";
        };
    }

    private String foreignDigits(int length) {
        String zero = FOREIGN_ZEROS[random.nextInt(FOREIGN_ZEROS.length)];
        int base = zero.codePointAt(0);
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < Math.min(length, BLOCK); i++) {
            text.appendCodePoint(random.nextInt(5) == 0 ? '0' + random.nextInt(10) : base + random.nextInt(10));
        }
        String digits = text.toString().repeat(Math.max(1, length / BLOCK));
        return random.nextBoolean() ? digits : digits + "x";
    }

    private String withControlCharacters(String text) {
        StringBuilder mixed = new StringBuilder(text);
        for (int i = 0, n = 1 + random.nextInt(5); i < n; i++) {
            mixed.insert(random.nextInt(mixed.length() + 1), (char) (random.nextBoolean() ? random.nextInt(0x20) : 0x7F + random.nextInt(0x21)));
        }
        return mixed.toString();
    }

    private byte[] invalidUtf8() {
        return switch (random.nextInt(5)) {
            case 0 -> new byte[] {(byte) 0xC3, 0x28};
            case 1 -> new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}; // a surrogate, which UTF-8 may not encode
            case 2 -> {
                byte[] digitsThenBad = utf8(digits(length()));
                digitsThenBad[digitsThenBad.length - 1] = (byte) 0xFF;
                yield digitsThenBad;
            }
            case 3 -> filled(length(), (byte) 0x80);
            default -> {
                byte[] noise = new byte[1 + random.nextInt(64)];
                random.nextBytes(noise);
                yield noise;
            }
        };
    }

    private String exponent() {
        return switch (random.nextInt(4)) {
            case 0 -> "1e" + digits(1 + random.nextInt(12));
            case 1 -> "1E999999999";
            case 2 -> "9".repeat(19 + random.nextInt(40));
            default -> digits(1 + random.nextInt(length())) + "e" + digits(1 + random.nextInt(9));
        };
    }

    private String targetLike() {
        return switch (random.nextInt(6)) {
            case 0 -> "kafka:" + "a".repeat(random.nextInt(300)) + (random.nextBoolean() ? "b" : "");
            case 1 -> "rabbitmq:" + "a".repeat(random.nextInt(300)) + "/" + "a".repeat(random.nextInt(300)) + (random.nextBoolean() ? "b" : "");
            case 2 -> "kafka:" + "a".repeat(length()) + "!";
            case 3 -> "rabbitmq:" + "/".repeat(length());
            case 4 -> "kafka:orders." + foreignDigits(1 + random.nextInt(20));
            default -> "kafka:delay.inbound";
        };
    }

    private String idLike() {
        int length = random.nextInt(4) == 0 ? 505 + random.nextInt(10) : 1 + random.nextInt(40);
        return random.nextBoolean() ? "i".repeat(length) : "\u00E9".repeat(length / 2 + 1);
    }

    private String controlLike() {
        return switch (random.nextInt(5)) {
            case 0 -> ControlRequest.CANCEL;
            case 1 -> ControlRequest.RESCHEDULE;
            case 2 -> "  CANCEL ";
            case 3 -> "cancel" + "l".repeat(length());
            default -> " ".repeat(26) + "reschedule";
        };
    }

    /** A RabbitMQ header: a long string, a number, a decimal with a large scale, a byte array or a table. */
    private MessageHeader amqpHeader(String name) {
        Object value = switch (random.nextInt(6)) {
            case 0 -> {
                byte[] bytes = value(name);
                yield new String(bytes == null ? new byte[0] : bytes, StandardCharsets.UTF_8);
            }
            case 1 -> random.nextLong();
            case 2 -> new BigDecimal(BigInteger.valueOf(random.nextInt()), random.nextInt(256));
            case 3 -> random.nextInt(1_000_000);
            case 4 -> filled(length(), (byte) '7');
            default -> Map.of("delay", digits(length()), "nested", List.of(1, 2, "x"));
        };
        return MessageHeader.amqp(name, value);
    }

    static MessageHeader text(String name, String value) {
        return MessageHeader.text(name, value);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] filled(int length, byte value) {
        byte[] bytes = new byte[length];
        Arrays.fill(bytes, value);
        return bytes;
    }
}
