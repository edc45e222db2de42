package io.github.redisdelaybridge.store.inspection;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Merging the pages of several slots into one page that never skips an entry. */
class SlotPageTest {

    @Test
    void finishedSlotsMergeInGlobalOrder() {
        Listing<PendingEntry> page = SlotPage.merge(List.of(
                new SlotPage<>(List.of(entry("b", 2), entry("d", 4)), null),
                new SlotPage<>(List.of(entry("a", 1), entry("c", 3)), null)), 10);

        assertThat(page.entries()).extracting(PendingEntry::messageId).containsExactly("a", "b", "c", "d");
        assertThat(page.next()).isNull();
    }

    @Test
    void aFullPageContinuesAfterItsLastEntry() {
        Listing<PendingEntry> page = SlotPage.merge(List.of(
                new SlotPage<>(List.of(entry("a", 1), entry("c", 3)), position("c", 3)),
                new SlotPage<>(List.of(entry("b", 2), entry("d", 4)), position("d", 4))), 3);

        assertThat(page.entries()).extracting(PendingEntry::messageId).containsExactly("a", "b", "c");
        assertThat(page.next()).isEqualTo(position("c", 3));
    }

    @Test
    void entriesBeyondASlotThatWasNotExaminedToTheEndWaitForTheNextPage() {
        Listing<PendingEntry> page = SlotPage.merge(List.of(
                new SlotPage<>(List.of(), position("x", 5)),
                new SlotPage<>(List.of(entry("a", 1), entry("z", 9)), null)), 10);

        assertThat(page.entries()).extracting(PendingEntry::messageId).containsExactly("a");
        assertThat(page.next()).isEqualTo(position("x", 5));
    }

    @Test
    void tiesAreOrderedByIdBytesAsRedisDoes() {
        Listing<PendingEntry> page = SlotPage.merge(List.of(
                new SlotPage<>(List.of(entry("ü", 1), entry("b", 1)), null),
                new SlotPage<>(List.of(entry("Z", 1), entry("a", 1)), null)), 10);

        assertThat(page.entries()).extracting(PendingEntry::messageId).containsExactly("Z", "a", "b", "ü");
    }

    @Test
    void equalMembersOfTwoSlotsAreOrderedBySlotAndBothListed() {
        // packed members use per-slot codes: two ids can share member bytes in two slots
        byte[] member = {(byte) 0xFF, 7, 1, 0, 5};
        PendingEntry inSlot0 = new PendingEntry("a-0-5", 1, 0, 10, "kafka:t", new ListPosition(1, member, 0));
        PendingEntry inSlot1 = new PendingEntry("b-0-5", 1, 0, 10, "kafka:t", new ListPosition(1, member, 1));

        Listing<PendingEntry> first = SlotPage.merge(List.of(
                new SlotPage<>(List.of(inSlot0), new ListPosition(1, member, 0)),
                new SlotPage<>(List.of(inSlot1), new ListPosition(1, member, 1))), 1);

        assertThat(first.entries()).containsExactly(inSlot0);
        assertThat(first.next().includesMemberIn(0)).as("slot 0 continues after its member").isFalse();
        assertThat(first.next().includesMemberIn(1)).as("slot 1 has not listed its equal member yet").isTrue();
    }

    private static PendingEntry entry(String id, long due) {
        return new PendingEntry(id, due, 0, 10, "kafka:t", position(id, due));
    }

    private static ListPosition position(String id, long due) {
        return new ListPosition(due, id.getBytes(StandardCharsets.UTF_8), 0);
    }
}
