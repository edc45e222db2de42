package io.github.redisdelaybridge.store.inspection;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * What one list script returned for one slot, and how pages of all slots become one page in global
 * order. Each slot's entries are in the global order already (a sorted set's order); a slot that was
 * not examined to its end has only been seen up to its frontier, so entries beyond the smallest such
 * frontier are left for the next page: the merged page never skips anything.
 *
 * @param entries  matching entries, in order
 * @param frontier the slot was examined up to here (inclusive); null when examined to its end
 */
record SlotPage<T extends Listed>(List<T> entries, ListPosition frontier) {

    static <T extends Listed> CompletableFuture<Listing<T>> mergeWhenDone(List<CompletableFuture<SlotPage<T>>> pages, int limit) {
        return CompletableFuture.allOf(pages.toArray(CompletableFuture[]::new))
                .thenApply(done -> merge(pages.stream().map(CompletableFuture::join).toList(), limit));
    }

    static <T extends Listed> Listing<T> merge(List<SlotPage<T>> pages, int limit) {
        ListPosition frontier = null;
        for (SlotPage<T> page : pages) {
            if (page.frontier != null && (frontier == null || frontier.isAfter(page.frontier))) {
                frontier = page.frontier;
            }
        }
        List<T> candidates = new ArrayList<>();
        for (SlotPage<T> page : pages) {
            for (T entry : page.entries) {
                if (frontier == null || !entry.position().isAfter(frontier)) {
                    candidates.add(entry);
                }
            }
        }
        candidates.sort(Comparator.comparing(Listed::position, ListPosition.ORDER));
        if (candidates.size() > limit) {
            List<T> page = List.copyOf(candidates.subList(0, limit));
            return new Listing<>(page, page.get(limit - 1).position());
        }
        return new Listing<>(List.copyOf(candidates), frontier);
    }
}
