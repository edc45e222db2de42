package io.github.redisdelaybridge.store.script;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One Lua script from {@code src/main/resources/lua/<name>.lua}, run by its SHA1 (EVALSHA) so the
 * source crosses the wire only once per Redis server: on NOSCRIPT (a fresh or restarted server, or a
 * cluster node that has not seen it yet) it falls back to EVAL, which also caches it there.
 *
 * <p>A line {@code -- @include lib/<fragment>} is replaced by {@code lua/lib/<fragment>.lua}, so a
 * fragment that several scripts need is written once (Redis runs one self-contained source). Fragments may
 * include fragments; each is put in once, where it is first included, so a fragment names what it needs
 * and a script that includes two users of the same helper still defines it once.
 */
public final class LuaScript {

    private static final Pattern INCLUDE = Pattern.compile("(?m)^-- @include (lib/[A-Za-z]+)$");

    private final String name;
    private final byte[] source;
    private final String sha1;

    private LuaScript(String name, byte[] source) {
        this.name = name;
        this.source = source;
        this.sha1 = sha1Hex(source);
    }

    public static LuaScript load(String name) {
        return new LuaScript(name, withIncludes(read(name), new HashSet<>()).getBytes(StandardCharsets.UTF_8));
    }

    private static String withIncludes(String source, Set<String> included) {
        return INCLUDE.matcher(source).replaceAll(line -> {
            String fragment = line.group(1);
            String expanded = included.add(fragment) ? withIncludes(read(fragment), included) : "-- (" + fragment + ": included above)";
            return Matcher.quoteReplacement(expanded);
        });
    }

    private static String read(String name) {
        String resource = "/lua/" + name + ".lua";
        try (InputStream in = LuaScript.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing Lua script " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String name() {
        return name;
    }

    /** SHA1 of the expanded source: the name Redis caches it under. */
    public String sha1() {
        return sha1;
    }

    /** The source as sent to Redis, includes expanded. */
    public String source() {
        return new String(source, StandardCharsets.UTF_8);
    }

    public <T> CompletableFuture<T> run(
            RedisScriptingAsyncCommands<byte[], byte[]> redis, ScriptOutputType type, byte[][] keys, byte[]... args) {
        CompletableFuture<T> bySha = redis.<T>evalsha(sha1, type, keys, args).toCompletableFuture();
        return bySha.exceptionallyCompose(failure -> isNoScript(failure)
                ? redis.<T>eval(source, type, keys, args).toCompletableFuture()
                : CompletableFuture.failedFuture(failure));
    }

    /** Redis does not have the script cached (Lettuce fails the command's own future with it, unwrapped). */
    private static boolean isNoScript(Throwable failure) {
        return failure instanceof RedisNoScriptException
                || failure instanceof CompletionException && failure.getCause() instanceof RedisNoScriptException;
    }

    /** SHA1 in lowercase hex, as Redis names a cached script and as a script's {@code redis.sha1hex} computes it. */
    public static String sha1Hex(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String toString() {
        return "LuaScript[" + name + " " + sha1 + "]";
    }
}
