package io.github.redisdelaybridge.store.script;

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
    void fragmentsIncludeWhatTheyNeedAndEachIsPutInOnce() {
        // listPending includes expandNames, which includes varint and envelopeTarget, which includes varint again
        String source = LuaScript.load("listPending").source();

        assertThat(source).doesNotContain("-- @include");
        assertThat(count(source, "local function readVarint(")).isEqualTo(1);
        assertThat(count(source, "local function envelopeTarget(")).isEqualTo(1);
        assertThat(source.indexOf("local function readVarint(")).isLessThan(source.indexOf("local function envelopeTarget("));
        assertThat(source.indexOf("local function envelopeTarget(")).isLessThan(source.indexOf("local function namesExpander("));
    }

    @Test
    void everyScriptThatStoresOrReturnsAPayloadConvertsItsNames() {
        for (String writer : List.of("schedule", "replayDeadLetter")) {
            assertThat(LuaScript.load(writer).source()).as(writer).contains("local function namesInterner(");
        }
        for (String reader : List.of("inspect", "listPending")) {
            assertThat(LuaScript.load(reader).source()).as(reader).contains("local function namesExpander(");
        }
        // the busiest script returns payloads and members as stored: the bridge reads them (StoredForms, StoredFormsTest)
        assertThat(LuaScript.load("claim").source()).doesNotContain("local function namesExpander(").doesNotContain("local function memberIds(");
    }

    @Test
    void scriptsThatTakeOrReturnIdsConvertThemAndScriptsThatSettleAClaimUseTheMemberAsGiven() {
        for (String converting : List.of("schedule", "cancel", "changeDueTime", "inspect", "listPending", "replayDeadLetter")) {
            String source = LuaScript.load(converting).source();
            assertThat(source).as(converting).contains("local function memberIds(");
            assertThat(count(source, "local function nameCodes(")).as(converting).isEqualTo(1);
        }
        for (String settling : List.of("acknowledge", "reschedule", "deadLetter", "reapExpiredLeases")) {
            assertThat(LuaScript.load(settling).source()).as(settling).doesNotContain("local function memberIds(");
        }
    }

    @Test
    void theLeaseRuleIsOneFragmentIncludedByEveryScriptThatGrantsChecksOrEndsALease() throws java.io.IOException {
        for (String name : List.of("claim", "acknowledge", "reschedule", "deadLetter", "reapExpiredLeases")) {
            String written = java.nio.file.Files.readString(java.nio.file.Path.of("src/main/resources/lua", name + ".lua"));
            assertThat(written).as(name).contains("-- @include lib/leases").doesNotContain("tonumber(token");
            assertThat(count(LuaScript.load(name).source(), "local function holdsLease(")).as(name).isEqualTo(1);
        }
    }

    @Test
    void aMissingScriptOrFragmentFailsLoudly() {
        assertThatThrownBy(() -> LuaScript.load("noSuchScript")).hasMessageContaining("/lua/noSuchScript.lua");
    }

    private static int count(String text, String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
            count++;
        }
        return count;
    }
}
