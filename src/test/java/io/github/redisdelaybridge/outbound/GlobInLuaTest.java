package io.github.redisdelaybridge.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.KeysPerTest;
import io.lettuce.core.ScriptOutputType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The admin API's target filter is matched in Redis ({@code lua/lib/globMatch.lua}) and must mean what a glob of the
 * allow-list means ({@link Glob}): both decide the same for thousands of random globs and targets, on the real Redis.
 */
class GlobInLuaTest {

    @RegisterExtension
    static final KeysPerTest redis = new KeysPerTest("unit-glob");

    /** Few letters, so that pieces overlap and repeat, which is where a glob matcher goes wrong. */
    private static final String ALPHABET = "ab.*";

    @Test
    void theLuaMatcherDecidesAsTheAllowListsGlob() throws Exception {
        String script = Files.readString(Path.of("src/main/resources/lua/lib/globMatch.lua"))
                + "\nlocal decided = {}\nfor i = 1, #ARGV, 2 do decided[#decided + 1] = globMatcher(ARGV[i])(ARGV[i + 1]) and 1 or 0 end\nreturn decided";
        Random random = new Random(30);
        List<String> pairs = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            pairs.add(random(random, 1 + random.nextInt(7)));
            pairs.add(random(random, random.nextInt(10)).replace("*", ""));
        }
        pairs.addAll(List.of("kafka:orders.*", "kafka:orders.created", "*.eu", "rabbitmq:x/orders.eu", "ab*ba", "aba", "*", "", "a", ""));

        byte[][] args = pairs.stream().map(text -> text.getBytes(StandardCharsets.UTF_8)).toArray(byte[][]::new);
        List<Long> decided = redis.connection().async().<List<Long>>eval(script.getBytes(StandardCharsets.UTF_8), ScriptOutputType.MULTI,
                new byte[0][], args).get(30, TimeUnit.SECONDS);

        int matched = 0;
        for (int i = 0; i < pairs.size(); i += 2) {
            boolean expected = new Glob(pairs.get(i)).matches(pairs.get(i + 1));
            assertThat(decided.get(i / 2) == 1).as("glob '%s' on '%s'", pairs.get(i), pairs.get(i + 1)).isEqualTo(expected);
            matched += expected ? 1 : 0;
        }
        int decisions = pairs.size() / 2;
        assertThat(matched).as("both outcomes are tried often").isBetween(decisions / 20, decisions - decisions / 20);
    }

    private static String random(Random random, int length) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < length; i++) {
            text.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        }
        return text.toString();
    }
}
