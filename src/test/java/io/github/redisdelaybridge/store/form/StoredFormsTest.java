package io.github.redisdelaybridge.store.form;

import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static io.github.redisdelaybridge.testkit.Utf8.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.MessageHeader;
import io.github.redisdelaybridge.message.codec.EnvelopeCodec;
import io.github.redisdelaybridge.testkit.KeysPerTest;
import io.lettuce.core.ScriptOutputType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The bridge reads claimed members and payloads exactly as the Lua fragments did (claim.lua no longer expands them):
 * every member and payload, well-formed or damaged, is read by {@link StoredForms} and by lib/memberIds and
 * lib/expandNames on the real Redis, and the two readings must agree byte for byte.
 */
class StoredFormsTest {

    @RegisterExtension
    static final KeysPerTest redis = new KeysPerTest("unit-stored-forms");

    private static final NamesProbe MEMBERS = new NamesProbe("memberIdsProbe", redis);
    private static final NamesProbe NAMES = new NamesProbe("namesProbe", redis);

    @Test
    void everyMemberReadsAsLibMemberIdsReadsIt() throws Exception {
        List<String> ids = new ArrayList<>(List.of("delay.inbound-0-1234567", "x-0-128", "x-0-16384", "x-0-999999999999999",
                "x-0-1000000000000000", "x-9999999999-1", "x-10000000000-1", "x-01-2", "ü-3-4", "日本語-0-5", "m-1", "", "-1-2",
                "rabbitmq-550e8400-e29b-41d4-a716-446655440000"));
        Random random = new Random(11);
        for (int i = 0; i < 300; i++) {
            ids.add("stem" + random.nextInt(400) + "-" + random.nextInt(20) + "-" + Math.abs(random.nextLong() % 1_000_000_000_000L));
        }
        List<byte[]> members = new ArrayList<>();
        List<byte[]> packed = MEMBERS.run("toMember", ids.stream().map(id -> bytes(id)).toArray(byte[][]::new));
        for (int i = 0; i < ids.size(); i++) {
            members.add(packed.get(3 * i));
        }
        for (int i = 0; i < 400; i++) {
            members.add(damaged(members.get(random.nextInt(ids.size())), random));
        }
        // numbers beyond what lib/memberIds packs (a partition of 11 digits, an offset of 16): refused by both
        byte[] first = members.get(0);
        members.add(new byte[] {first[0], first[1], first[2], (byte) 0x80, (byte) 0xC8, (byte) 0xAF, (byte) 0xA0, (byte) 0x25, 0});
        members.add(new byte[] {first[0], first[1], first[2], 0, (byte) 0x80, (byte) 0x80, (byte) 0x9A, (byte) 0xA6, (byte) 0xEA,
                (byte) 0xAF, (byte) 0xE3, 1});

        List<byte[]> luaIds = MEMBERS.run("toId", members.toArray(byte[][]::new));
        Names names = names();
        for (int i = 0; i < members.size(); i++) {
            byte[] lua = luaIds.get(i);
            assertThat(StoredForms.idOf(members.get(i), names.tag, names::of)).as("member %d", i).isEqualTo(lua == null ? null : text(lua));
        }
        assertThat(luaIds.stream().filter(id -> id == null).count()).as("damaged members Lua refuses too").isPositive();
    }

    @Test
    void everyPayloadExpandsAsLibExpandNamesExpandsIt() throws Exception {
        Random random = new Random(13);
        List<byte[]> wire = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            String target = i % 3 == 0 ? "rabbitmq:orders/expired-" + random.nextInt(200) : "kafka:out." + random.nextInt(150);
            if (i % 50 == 7) {
                target = "kafka:" + "long-topic-".repeat(20) + i; // a name of 200+ bytes: its length takes a two-byte varint
            }
            byte[] body = new byte[random.nextInt(300)];
            random.nextBytes(body);
            wire.add(EnvelopeCodec.encode(new Envelope("m-" + i, target, "kafka:delay.inbound/" + random.nextInt(4) + "@" + i,
                    i % 2 == 0 ? null : bytes("key-" + i), List.of(MessageHeader.text("trace", "t-" + i)), Map.of(), body)));
        }
        List<byte[]> payloads = new ArrayList<>(NAMES.run("intern", wire.toArray(byte[][]::new)));
        for (int i = 0; i < 300; i++) {
            payloads.add(damaged(payloads.get(random.nextInt(wire.size())), random));
        }
        payloads.add(wire.get(0)); // a wire form passes through as it is

        List<byte[]> luaExpanded = NAMES.run("expand", payloads.toArray(byte[][]::new));
        Names names = names();
        for (int i = 0; i < payloads.size(); i++) {
            assertThat(StoredForms.expand(payloads.get(i), names.tag, names::of)).as("payload %d", i).isEqualTo(luaExpanded.get(i));
        }
        for (int i = 0; i < wire.size(); i++) {
            assertThat(StoredForms.expand(payloads.get(i), names.tag, names::of)).as("round trip %d", i).isEqualTo(wire.get(i));
        }
    }

    @Test
    void withAnotherTagOrAnUnknownCodeNothingIsResolved() throws Exception {
        byte[] member = MEMBERS.run("toMember", bytes("orders-1-2")).get(0);
        byte[] payload = NAMES.run("intern", EnvelopeCodec.encode(new Envelope("m", "kafka:t", "kafka:in/0@1", null, List.of(), Map.of(),
                new byte[] {1}))).get(0);
        Names names = names();

        assertThat(StoredForms.idOf(member, names.tag, names::of)).isEqualTo("orders-1-2");
        assertThat(StoredForms.idOf(member, (names.tag + 1) % 256, names::of)).isNull();
        assertThat(StoredForms.idOf(member, names.tag, code -> null)).isNull();
        assertThat(StoredForms.expand(payload, (names.tag + 1) % 256, names::of)).isEqualTo(payload);
        assertThat(StoredForms.expand(payload, names.tag, code -> null)).isEqualTo(payload);
        assertThat(StoredForms.expand(payload, -1, names::of)).isEqualTo(payload);
    }

    /** The bytes with one change: a byte altered, one cut off the end, or one added. */
    private static byte[] damaged(byte[] original, Random random) {
        byte[] copy = original.clone();
        switch (random.nextInt(3)) {
            case 0 -> {
                if (copy.length > 0) {
                    copy[random.nextInt(Math.min(copy.length, 8))] = (byte) random.nextInt(256);
                }
                return copy;
            }
            case 1 -> {
                return java.util.Arrays.copyOf(copy, Math.max(0, copy.length - 1 - random.nextInt(3)));
            }
            default -> {
                byte[] longer = java.util.Arrays.copyOf(copy, copy.length + 1);
                longer[copy.length] = (byte) random.nextInt(256);
                return longer;
            }
        }
    }

    private record Names(int tag, Map<Long, byte[]> byCode) {
        byte[] of(long code) {
            return byCode.get(code);
        }
    }

    /** The names hash as Redis holds it now. */
    private static Names names() throws Exception {
        Map<byte[], byte[]> all = redis.connection().async().hgetall(bytes(namesKey())).get(5, TimeUnit.SECONDS);
        Map<Long, byte[]> byCode = new HashMap<>();
        int tag = -1;
        for (Map.Entry<byte[], byte[]> field : all.entrySet()) {
            String name = text(field.getKey());
            if (name.startsWith("c:")) {
                byCode.put(Long.parseLong(name.substring(2)), field.getValue());
            } else if (name.equals("tag")) {
                tag = Integer.parseInt(text(field.getValue()));
            }
        }
        return new Names(tag, byCode);
    }

    private static String namesKey() {
        return NAMES.namesKey();
    }
}
