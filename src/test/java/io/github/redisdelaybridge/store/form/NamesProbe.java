package io.github.redisdelaybridge.store.form;

import static io.github.redisdelaybridge.testkit.Utf8.bytes;

import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.script.LuaScript;
import io.github.redisdelaybridge.testkit.KeysPerTest;
import io.lettuce.core.ScriptOutputType;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A test-only Lua probe (src/test/resources/lua/test) run on the names hash of slot 0 of a test's keys: the probe's
 * first ARGV says what to do with the others; the reply is a flat list of byte strings (null for Lua's false).
 */
final class NamesProbe {

    private final LuaScript script;
    private final KeysPerTest redis;

    NamesProbe(String name, KeysPerTest redis) {
        this.script = LuaScript.load("test/" + name);
        this.redis = redis;
    }

    List<byte[]> run(String what, byte[]... args) throws Exception {
        byte[][] all = new byte[args.length + 1][];
        all[0] = bytes(what);
        System.arraycopy(args, 0, all, 1, args.length);
        List<Object> reply = script.<List<Object>>run(redis.connection().async(), ScriptOutputType.MULTI, new byte[][] {bytes(namesKey())}, all)
                .get(30, TimeUnit.SECONDS);
        return reply.stream().map(value -> (byte[]) value).toList();
    }

    String namesKey() {
        return new Keys(redis.prefix(), 1).names(0);
    }
}
