package io.github.redisdelaybridge.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class LuaScriptTest {

    private static final List<String> SCRIPTS =
            List.of("schedule", "claim", "acknowledge", "reschedule", "reapExpiredLeases", "deadLetter", "storeDeadLetters");

    @Test
    void includesAreExpandedInEveryScript() {
        for (String name : SCRIPTS) {
            String source = LuaScript.load(name).source();
            assertThat(source).as(name).doesNotContain("@include").contains("local now = ");
        }
        assertThat(LuaScript.load("deadLetter").source()).contains("local function trimDeadLetters(");
    }

    @Test
    void everyScriptOpensWithItsContract() {
        for (String name : SCRIPTS) {
            String source = LuaScript.load(name).source();
            assertThat(source).as(name).startsWith("--[[\n  " + name + ":").contains("KEYS[1]").contains("ARGV[1]").contains("Returns:");
        }
    }

    @Test
    void aMissingScriptOrFragmentFailsLoudly() {
        assertThatThrownBy(() -> LuaScript.load("noSuchScript")).hasMessageContaining("/lua/noSuchScript.lua");
    }
}
