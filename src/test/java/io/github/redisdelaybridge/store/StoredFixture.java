package io.github.redisdelaybridge.store;

import io.lettuce.core.ScoredValue;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * A fixture of src/test/resources/stored-forms: what the keys of slot 0 hold in Redis, one entry a line, as
 * {@code <key> hash <field> <value>}, {@code <key> zset <member> <score>}, {@code <key> set <member>} or
 * {@code <key> string <value>}. The key is
 * named by its {@link Keys} method (due, payloads, names, ...), so a fixture loads under any prefix. A token is its
 * text when that is printable ASCII without spaces, else {@code hex:} and its bytes. Lines starting with # are comments.
 */
final class StoredFixture {

    /** The keys a fixture may hold, by the name of their {@link Keys} method. */
    static final Map<String, Function<Keys, String>> KEYS = keysByName();

    private final List<String[]> entries;

    private StoredFixture(List<String[]> entries) {
        this.entries = entries;
    }

    static StoredFixture read(String name) {
        try (InputStream in = StoredFixture.class.getResourceAsStream("/stored-forms/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture stored-forms/" + name);
            }
            List<String[]> entries = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.US_ASCII).split("\n")) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    entries.add(line.trim().split(" +"));
                }
            }
            return new StoredFixture(entries);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The lines of a fixture file that are not entries either (cursor.txt: name, then value). */
    static List<String> readLines(String name) {
        return read(name).lines();
    }

    /** The entries of one key only. */
    StoredFixture only(String keyName) {
        return new StoredFixture(entries.stream().filter(e -> e[0].equals(keyName)).toList());
    }

    boolean hasKey(String keyName) {
        return entries.stream().anyMatch(e -> e[0].equals(keyName));
    }

    /** The entries, one a line, as {@link #dump} writes them. */
    List<String> lines() {
        return entries.stream().map(e -> String.join(" ", e)).toList();
    }

    /** Writes every entry into the keys of slot 0 of {@code keys}. */
    void load(RedisClusterAsyncCommands<byte[], byte[]> redis, Keys keys) throws Exception {
        for (String[] entry : entries) {
            byte[] key = bytes(keyOf(entry[0]).apply(keys));
            switch (entry[1]) {
                case "hash" -> redis.hset(key, bytesOf(entry[2]), bytesOf(entry[3])).get(5, TimeUnit.SECONDS);
                case "zset" -> redis.zadd(key, Double.parseDouble(entry[3]), bytesOf(entry[2])).get(5, TimeUnit.SECONDS);
                case "set" -> redis.sadd(key, bytesOf(entry[2])).get(5, TimeUnit.SECONDS);
                case "string" -> redis.set(key, bytesOf(entry[2])).get(5, TimeUnit.SECONDS);
                default -> throw new IllegalArgumentException("unknown type in fixture line " + String.join(" ", entry));
            }
        }
    }

    /** The value of a hash field. */
    byte[] field(String keyName, byte[] field) {
        return entries.stream().filter(e -> e[0].equals(keyName) && Arrays.equals(bytesOf(e[2]), field)).findFirst()
                .map(e -> bytesOf(e[3])).orElseThrow(() -> new IllegalArgumentException("no such field of " + keyName + " in fixture"));
    }

    /** The members of a sorted set, lowest score first. */
    List<byte[]> members(String keyName) {
        return entries.stream().filter(e -> e[0].equals(keyName)).sorted((a, b) -> Double.compare(Double.parseDouble(a[3]),
                Double.parseDouble(b[3]))).map(e -> bytesOf(e[2])).toList();
    }

    /** The lines of a fixture holding what slot 0 of {@code keys} holds now (keys by name, fields and members sorted). */
    static List<String> dump(RedisClusterAsyncCommands<byte[], byte[]> redis, Keys keys) throws Exception {
        List<String> lines = new ArrayList<>();
        for (Map.Entry<String, Function<Keys, String>> named : KEYS.entrySet()) {
            byte[] key = bytes(named.getValue().apply(keys));
            String type = redis.type(key).get(5, TimeUnit.SECONDS);
            switch (type) {
                case "none" -> { }
                case "hash" -> {
                    Map<String, String> sorted = new TreeMap<>();
                    redis.hgetall(key).get(5, TimeUnit.SECONDS).forEach((f, v) -> sorted.put(tokenOf(f), tokenOf(v)));
                    sorted.forEach((f, v) -> lines.add(named.getKey() + " hash " + f + " " + v));
                }
                case "zset" -> {
                    for (ScoredValue<byte[]> scored : redis.zrangeWithScores(key, 0, -1).get(5, TimeUnit.SECONDS)) {
                        lines.add(named.getKey() + " zset " + tokenOf(scored.getValue()) + " " + (long) scored.getScore());
                    }
                }
                case "set" -> redis.smembers(key).get(5, TimeUnit.SECONDS).stream().map(StoredFixture::tokenOf).sorted()
                        .forEach(member -> lines.add(named.getKey() + " set " + member));
                case "string" -> lines.add(named.getKey() + " string " + tokenOf(redis.get(key).get(5, TimeUnit.SECONDS)));
                default -> throw new IllegalStateException(named.getKey() + " is a " + type);
            }
        }
        return lines;
    }

    static String tokenOf(byte[] bytes) {
        for (byte b : bytes) {
            if (b <= ' ' || b >= 0x7F) {
                return "hex:" + HexFormat.of().formatHex(bytes);
            }
        }
        return bytes.length == 0 || new String(bytes, StandardCharsets.US_ASCII).startsWith("hex:")
                ? "hex:" + HexFormat.of().formatHex(bytes) : new String(bytes, StandardCharsets.US_ASCII);
    }

    static byte[] bytesOf(String token) {
        return token.startsWith("hex:") ? HexFormat.of().parseHex(token.substring(4)) : bytes(token);
    }

    private static Function<Keys, String> keyOf(String name) {
        Function<Keys, String> key = KEYS.get(name);
        if (key == null) {
            throw new IllegalArgumentException("unknown key " + name + " in fixture");
        }
        return key;
    }

    static byte[] keyBytes(String key) {
        return bytes(key);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static Map<String, Function<Keys, String>> keysByName() {
        Map<String, Function<Keys, String>> keys = new TreeMap<>();
        keys.put("due", k -> k.due(0));
        keys.put("inFlight", k -> k.inFlight(0));
        keys.put("payloads", k -> k.payloads(0));
        keys.put("names", k -> k.names(0));
        keys.put("attempts", k -> k.attempts(0));
        keys.put("delivered", k -> k.delivered(0));
        keys.put("cancelled", k -> k.cancelled(0));
        keys.put("deadLetters", k -> k.deadLetters(0));
        keys.put("deadLetterIndex", k -> k.deadLetterIndex(0));
        keys.put("deadLetterBytes", k -> k.deadLetterBytes(0));
        keys.put("groupIndex:" + StoredFixtureMessages.GROUP, k -> k.groupIndex(0, StoredFixtureMessages.GROUP));
        keys.put("parkedTargets", k -> k.parkedTargets(0));
        keys.put("parkedIndex:" + StoredFixtureMessages.PARKED_TARGET, k -> k.parkedIndexPrefix(0) + StoredFixtureMessages.PARKED_TARGET);
        return Collections.unmodifiableMap(keys);
    }
}
