package io.github.redisdelaybridge.store;

import static org.assertj.core.api.Assertions.assertThat;

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
                new SlotPage<>(List.of(entry("a", 1), entry("c", 3)), new ListPosition(3, "c")),
                new SlotPage<>(List.of(entry("b", 2), entry("d", 4)), new ListPosition(4, "d"))), 3);

        assertThat(page.entries()).extracting(PendingEntry::messageId).containsExactly("a", "b", "c");
        assertThat(page.next()).isEqualTo(new ListPosition(3, "c"));
    }

    @Test
    void entriesBeyondASlotThatWasNotExaminedToTheEndWaitForTheNextPage() {
        Listing<PendingEntry> page = SlotPage.merge(List.of(
                new SlotPage<>(List.of(), new ListPosition(5, "x")),
                new SlotPage<>(List.of(entry("a", 1), entry("z", 9)), null)), 10);

        assertThat(page.entries()).extracting(PendingEntry::messageId).containsExactly("a");
        assertThat(page.next()).isEqualTo(new ListPosition(5, "x"));
    }

    @Test
    void tiesAreOrderedByIdBytesAsRedisDoes() {
        Listing<PendingEntry> page = SlotPage.merge(List.of(
                new SlotPage<>(List.of(entry("ü", 1), entry("b", 1)), null),
                new SlotPage<>(List.of(entry("Z", 1), entry("a", 1)), null)), 10);

        assertThat(page.entries()).extracting(PendingEntry::messageId).containsExactly("Z", "a", "b", "ü");
    }

    private static PendingEntry entry(String id, long due) {
        return new PendingEntry(id, due, 0, 10, "kafka:t");
    }
}
