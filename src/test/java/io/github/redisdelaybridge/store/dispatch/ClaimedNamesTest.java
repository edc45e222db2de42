package io.github.redisdelaybridge.store.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.redisdelaybridge.store.Keys;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A claim whose missing names cannot be fetched fails as a whole, like a claim Redis did not answer (the dispatcher then
 * gives its leases back, DueMessageClaimer), instead of handing on its messages unread, which would dead-letter them.
 */
class ClaimedNamesTest {

    private static final int TAG = 5;
    /** Packed member of "orders-0-1": 0xFF, tag, stem code 1, partition 0, offset 1. */
    private static final byte[] PACKED = {(byte) 0xFF, TAG, 1, 0, 1};

    @Test
    void aClaimWhoseNamesCannotBeFetchedFailsInsteadOfComingBackUnread() {
        ClaimedNames names = new ClaimedNames(new Keys("unit-claimed-names", 1),
                call -> CompletableFuture.failedFuture(new IllegalStateException("Redis went away")));

        CompletableFuture<ClaimedBatch> batch = names.resolve(0, claimOf(PACKED));

        assertThatThrownBy(() -> batch.get(5, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class).hasMessageContaining("Redis went away");
    }

    @Test
    void namesFetchedOnceAreNotFetchedAgain() throws Exception {
        int[] fetches = {0};
        ClaimedNames names = new ClaimedNames(new Keys("unit-claimed-names", 1), call -> {
            fetches[0]++;
            return CompletableFuture.completedFuture(new ResolveNamesScript.Resolved(TAG, Map.of(1L, "orders".getBytes())));
        });

        assertThat(names.resolve(0, claimOf(PACKED)).get().messages().get(0).messageId()).isEqualTo("orders-0-1");
        assertThat(names.resolve(0, claimOf(PACKED)).get().messages().get(0).messageId()).isEqualTo("orders-0-1");
        assertThat(fetches[0]).isEqualTo(1);
    }

    private static ClaimScript.StoredClaim claimOf(byte[] member) {
        return new ClaimScript.StoredClaim(1_000, -1, 61_000, TAG, List.of(new ClaimScript.StoredMessage(member, 1_000, 0, null, -1)));
    }
}
