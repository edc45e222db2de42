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
    void everyScriptOpensWithItsContract() throws java.io.IOException {
        List<String> all;
        try (var files = java.nio.file.Files.list(java.nio.file.Path.of("src/main/resources/lua"))) {
            all = files.map(f -> f.getFileName().toString()).filter(f -> f.endsWith(".lua")).map(f -> f.substring(0, f.length() - 4)).toList();
        }
        assertThat(all).containsAll(SCRIPTS);
        for (String name : all) {
            String source = LuaScript.load(name).source();
            assertThat(source).as(name).startsWith("--[[\n  " + name + ":").contains("KEYS[1]").contains("ARGV[1]").contains("Returns:");
        }
    }

    @Test
    void aMissingScriptOrFragmentFailsLoudly() {
        assertThatThrownBy(() -> LuaScript.load("noSuchScript")).hasMessageContaining("/lua/noSuchScript.lua");
    }
}
