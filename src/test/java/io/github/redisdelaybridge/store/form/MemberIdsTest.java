package io.github.redisdelaybridge.store.form;

import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static io.github.redisdelaybridge.testkit.Utf8.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.KeysPerTest;
import io.lettuce.core.ScriptOutputType;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * lua/lib/memberIds against the real Redis, called directly (test script lua/test/memberIdsProbe): which ids are
 * packed, the packed member byte by byte, that expanding is the exact inverse, and what is refused.
 */
class MemberIdsTest {

    @RegisterExtension
    static final KeysPerTest redis = new KeysPerTest("unit-members");

    private static final NamesProbe PROBE = new NamesProbe("memberIdsProbe", redis);
    /** The rule of lib/memberIds, written independently: stem, partition (<= 10 digits), offset (<= 15), no leading zeros. */
    private static final Pattern PACKABLE = Pattern.compile("(.+)-([0-9]+)-([0-9]+)", Pattern.DOTALL);

    @Test
    void theDefaultKafkaIdPacksIntoSevenBytesLaidOutAsDocumented() throws Exception {
        List<byte[]> reply = probe("toMember", "delay.inbound-0-1234567");

        int tag = Integer.parseInt(names("tag"));
        // 0xFF, tag, stem code 1 (the first name of this names hash), partition 0, offset 1234567 as a varint
        assertThat(reply.get(0)).containsExactly(0xFF, tag, 1, 0, 0x87, 0xAD, 0x4B);
        assertThat(text(reply.get(1))).isEqualTo("delay.inbound-0-1234567");
        assertThat(names("n:delay.inbound")).isEqualTo("1");
        assertThat(names("c:1")).isEqualTo("delay.inbound");
        assertThat(names("stems")).isEqualTo("1");
    }

    @Test
    void everyIdRoundTripsAndExactlyThePackableOnesArePacked() throws Exception {
        List<String> ids = new ArrayList<>(List.of(
                "delay.inbound-0-1234567", "a-1-2-3", "a-1-2", "x-0-0", "x-0-127", "x-0-128", "x-0-16383", "x-0-16384",
                "x-0-" + (1L << 35), "x-0-" + ((1L << 49) - 1), "x-0-" + (1L << 49), "x-0-999999999999999", "x-0-1000000000000000",
                "x-9999999999-1", "x-10000000000-1", "x-2147483647-9223372036854775807", "x-01-2", "x-1-01", "x-00-0", "x-0-00",
                "1-2", "-1-2", "--1-2", "x--1-2", "x-1--2", "x-1-2-", "x-1-2 ", " -1-2", "x-+1-2", "x-1-0x2", "x-١-٢",
                "ü-3-4", "日本語-0-5", "emoji😀-7-8", "tab\t-1-2", "line\nbreak-1-2", "m-1", "m", "", "-", "--", "0-0-0",
                "delay.inbound", "rabbitmq-550e8400-e29b-41d4-a716-446655440000", "rabbitmq-550e8400-e29b-41d4-4716-446655440000",
                "kafka:orders-3-17", "unresolvable-member:ff01", "x".repeat(400) + "-1-2"));
        Random random = new Random(7);
        String[] parts = {"a", "-", "0", "1", "9", "ü", ".", "10", "-0", "00"};
        for (int i = 0; i < 2_000; i++) {
            StringBuilder id = new StringBuilder();
            for (int n = random.nextInt(9); n > 0; n--) {
                id.append(parts[random.nextInt(parts.length)]);
            }
            ids.add(id.toString());
        }

        List<byte[]> reply = probe("toMember", ids.toArray(String[]::new));

        int packed = 0;
        for (int i = 0; i < ids.size(); i++) {
            String id = ids.get(i);
            byte[] member = reply.get(3 * i);
            assertThat(reply.get(3 * i + 1)).as("toId(toMember(%s))", id).isNotNull();
            assertThat(text(reply.get(3 * i + 1))).as("toId(toMember(%s))", id).isEqualTo(id);
            assertThat(reply.get(3 * i + 2)).as("lookupMember(%s) once the stem has a code", id).isEqualTo(member);
            if (packable(id)) {
                packed++;
                assertThat(member[0]).as("%s is packed", id).isEqualTo((byte) 0xFF);
                assertThat(member).as("%s: its member is the documented bytes", id).isEqualTo(expectedMember(id));
            } else {
                assertThat(member).as("%s stays verbatim", id).isEqualTo(bytes(id));
            }
        }
        assertThat(packed).as("the sample has both kinds").isBetween(50, ids.size() - 50);
    }

    @Test
    void anIdPacksToTheSameMemberEveryTime() throws Exception {
        byte[] first = probe("toMember", "orders-2-99").get(0);
        byte[] again = probe("toMember", "orders-2-99").get(0);
        probe("toMember", "other-0-1", "third-0-1");

        assertThat(probe("toMember", "orders-2-99").get(0)).isEqualTo(first).isEqualTo(again);
        assertThat(probe("lookupMember", "orders-2-99").get(0)).isEqualTo(first);
    }

    @Test
    void lookingUpWritesNothingAndFindsNoPackedMemberForAStemWithoutCode() throws Exception {
        List<byte[]> reply = probe("lookupMember", "fresh-0-1", "m-1");

        assertThat(text(reply.get(0))).as("no code for the stem: no packed member can exist").isEqualTo("fresh-0-1");
        assertThat(text(reply.get(1))).isEqualTo("m-1");
        assertThat(redis.connection().async().exists(bytes(namesKey())).get(5, TimeUnit.SECONDS)).as("names hash untouched").isZero();

        probe("toMember", "fresh-0-2");
        assertThat(probe("lookupMember", "fresh-0-1").get(0)[0]).as("once the stem has a code").isEqualTo((byte) 0xFF);
    }

    @Test
    void aMemberThatCannotBeReadGivesNoId() throws Exception {
        probe("toMember", "t-0-5");
        int tag = Integer.parseInt(names("tag"));
        byte[] valid = {(byte) 0xFF, (byte) tag, 1, 0, 5};
        byte[] tooBigPartition = concat(new byte[] {(byte) 0xFF, (byte) tag, 1}, varint(10_000_000_000L), new byte[] {5});
        byte[] tooBigOffset = concat(new byte[] {(byte) 0xFF, (byte) tag, 1, 0}, varint(1_000_000_000_000_000L));

        List<byte[]> reply = probe("toId", valid, new byte[] {(byte) 0xFF}, new byte[] {(byte) 0xFF, (byte) tag},
                new byte[] {(byte) 0xFF, (byte) (tag + 1), 1, 0, 5}, new byte[] {(byte) 0xFF, (byte) tag, 99, 0, 5},
                new byte[] {(byte) 0xFF, (byte) tag, 1, 0, 5, 0}, new byte[] {(byte) 0xFF, (byte) tag, 1, (byte) 0x80, 0, 5},
                new byte[] {(byte) 0xFF, (byte) tag, 1, 0, (byte) 0x85}, tooBigPartition, tooBigOffset, bytes("t-0-5"));

        assertThat(text(reply.get(0))).isEqualTo("t-0-5");
        for (int i = 1; i <= 9; i++) {
            assertThat(reply.get(i)).as("damaged member %d", i).isNull();
        }
        assertThat(text(reply.get(10))).as("a member without 0xFF is the id itself").isEqualTo("t-0-5");
    }

    @Test
    void aMemberPackedIntoALostNamesHashIsNotReadWithItsSuccessorsCodes() throws Exception {
        byte[] member = probe("toMember", "first-0-5").get(0);
        int oldTag = Integer.parseInt(names("tag"));
        redis.connection().async().del(bytes(namesKey())).get(5, TimeUnit.SECONDS);

        assertThat(probe("toId", member).get(0)).as("names hash gone").isNull();

        redis.connection().async().hset(bytes(namesKey()), bytes("tag"), bytes(Integer.toString((oldTag + 1) % 256))).get(5, TimeUnit.SECONDS);
        probe("toMember", "second-0-5");
        assertThat(names("n:second")).as("the code first had").isEqualTo("1");
        assertThat(probe("toId", member).get(0)).as("tag differs").isNull();
    }

    @Test
    void atMostAThousandStemsGetCodesThenNewStemsStayVerbatim() throws Exception {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 1_050; i++) {
            ids.add("order" + i + "-1-2");
        }
        ids.add("order5-3-4");

        List<byte[]> reply = probe("toMember", ids.toArray(String[]::new));

        for (int i = 0; i < ids.size(); i++) {
            boolean expectPacked = i < 1_000 || ids.get(i).equals("order5-3-4");
            assertThat(reply.get(3 * i)[0] == (byte) 0xFF).as(ids.get(i)).isEqualTo(expectPacked);
            assertThat(text(reply.get(3 * i + 1))).isEqualTo(ids.get(i));
        }
        assertThat(names("stems")).isEqualTo("1000");
        assertThat(text(probe("toMember", "order1049-1-2").get(0))).as("in a later call too").isEqualTo("order1049-1-2");
        assertThat(text(probe("lookupMember", "order1049-1-2").get(0))).isEqualTo("order1049-1-2");
    }

    // --- helpers ----------------------------------------------------------------------------------------------

    private static boolean packable(String id) {
        Matcher m = PACKABLE.matcher(id);
        return m.matches() && isNumber(m.group(2), 10) && isNumber(m.group(3), 15);
    }

    private static boolean isNumber(String digits, int maxDigits) {
        return digits.length() <= maxDigits && (digits.length() == 1 || digits.charAt(0) != '0');
    }

    private static byte[] expectedMember(String id) throws Exception {
        Matcher m = PACKABLE.matcher(id);
        assertThat(m.matches()).isTrue();
        String code = names("n:" + m.group(1));
        assertThat(code).as("code of stem %s", m.group(1)).isNotNull();
        return concat(new byte[] {(byte) 0xFF, (byte) Integer.parseInt(names("tag"))}, varint(Long.parseLong(code)),
                varint(Long.parseLong(m.group(2))), varint(Long.parseLong(m.group(3))));
    }

    private static byte[] varint(long value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while (value >= 0x80) {
            out.write((int) (value & 0x7F) | 0x80);
            value >>>= 7;
        }
        out.write((int) value);
        return out.toByteArray();
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    private static List<byte[]> probe(String what, String... ids) throws Exception {
        byte[][] args = new byte[ids.length][];
        for (int i = 0; i < ids.length; i++) {
            args[i] = bytes(ids[i]);
        }
        return probe(what, args);
    }

    private static List<byte[]> probe(String what, byte[]... args) throws Exception {
        return PROBE.run(what, args);
    }

    private static String namesKey() {
        return PROBE.namesKey();
    }

    private static String names(String field) throws Exception {
        byte[] value = redis.connection().async().hget(bytes(namesKey()), bytes(field)).get(5, TimeUnit.SECONDS);
        return value == null ? null : text(value);
    }
}
