package io.github.redisdelaybridge.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.cluster.SlotHash;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class KeysTest {

    @Test
    void everyKeyOfASlotCarriesTheHashTagOfPrefixAndSlot() {
        Keys keys = new Keys("rdb", 8);

        assertThat(allKeys(keys, 5)).allSatisfy(key -> {
            assertThat(key).startsWith("rdb:");
            assertThat(key).contains("{rdb:5}");
            assertThat(hashTagOf(key)).isEqualTo("rdb:5");
        });
    }

    @Test
    void keysOfOneSlotAreDistinctAndShareOneClusterHashSlot() {
        List<String> keys = allKeys(new Keys("rdb", 4), 3);

        assertThat(keys).doesNotHaveDuplicates().hasSize(9);
        assertThat(keys.stream().map(SlotHash::getSlot).collect(Collectors.toSet())).hasSize(1);
    }

    @Test
    void differentSlotsGetDifferentKeys() {
        Keys keys = new Keys("rdb", 2);

        assertThat(keys.due(0)).isNotEqualTo(keys.due(1));
        assertThat(allKeys(keys, 0)).doesNotContainAnyElementsOf(allKeys(keys, 1));
    }

    @Test
    void keyLayoutIsPrefixHashTagAndName() {
        Keys keys = new Keys("app", 3);

        assertThat(keys.due(2)).isEqualTo("app:{app:2}:due");
        assertThat(keys.inFlight(2)).isEqualTo("app:{app:2}:inflight");
        assertThat(keys.payloads(2)).isEqualTo("app:{app:2}:payloads");
        assertThat(keys.attempts(2)).isEqualTo("app:{app:2}:attempts");
        assertThat(keys.failingSince(2)).isEqualTo("app:{app:2}:failing-since");
        assertThat(keys.claims(2)).isEqualTo("app:{app:2}:claims");
        assertThat(keys.leaseClaimers(2)).isEqualTo("app:{app:2}:lease-claimers");
        assertThat(keys.delivered(2)).isEqualTo("app:{app:2}:delivered");
        assertThat(keys.names(2)).isEqualTo("app:{app:2}:names");
    }

    @Test
    void theNamesHashSharesTheClusterHashSlotOfThePayloadsItsCodesAppearIn() {
        // schedule.lua and claim.lua touch both in one script: on Redis Cluster they must live on one node
        Keys keys = new Keys("rdb", 16);

        for (int slot = 0; slot < 16; slot++) {
            assertThat(hashTagOf(keys.names(slot))).isEqualTo("rdb:" + slot);
            assertThat(SlotHash.getSlot(keys.names(slot))).isEqualTo(SlotHash.getSlot(keys.payloads(slot)))
                    .isEqualTo(SlotHash.getSlot(keys.due(slot)));
        }
        assertThat(keys.names(0)).isNotEqualTo(keys.names(1));
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, 4, 100})
    void slotsOutsideTheRangeAreRejected(int slot) {
        Keys keys = new Keys("rdb", 4);

        assertThatThrownBy(() -> keys.due(slot)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("slot " + slot);
        assertThatThrownBy(() -> keys.payloads(slot)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void slotOfIsStableAcrossInstances() {
        Keys first = new Keys("rdb", 16);
        Keys second = new Keys("other-prefix", 16);

        for (int i = 0; i < 1_000; i++) {
            String id = "message-" + i;
            assertThat(first.slotOf(id)).isEqualTo(first.slotOf(id)).isEqualTo(second.slotOf(id));
        }
    }

    @Test
    void slotOfIsAKnownCrc32Value() {
        // CRC32("123456789") = 0xCBF43926 = 3421780262; 3421780262 % 7 = 5
        assertThat(new Keys("rdb", 7).slotOf("123456789")).isEqualTo(5);
    }

    @Test
    void slotOfStaysWithinRangeIncludingUnicodeAndEmptyIds() {
        Keys keys = new Keys("rdb", 5);

        for (String id : List.of("", "a", "ü", "🚀🚀", "x".repeat(600), "id-" + Long.MAX_VALUE)) {
            assertThat(keys.slotOf(id)).isBetween(0, 4);
        }
        for (int i = 0; i < 10_000; i++) {
            assertThat(keys.slotOf("m" + i)).isBetween(0, 4);
        }
    }

    @Test
    void singleSlotPutsEveryIdInSlotZero() {
        Keys keys = new Keys("rdb", 1);

        for (int i = 0; i < 100; i++) {
            assertThat(keys.slotOf("id-" + i)).isZero();
        }
    }

    @Test
    void slotOfSpreadsIdsEvenlyOverSlots() {
        Keys keys = new Keys("rdb", 16);
        int[] counts = new int[16];
        for (int i = 0; i < 16_000; i++) {
            counts[keys.slotOf("order-" + i + "-timeout")]++;
        }

        // 1000 expected per slot; a decent hash stays well within +-30%
        for (int slot = 0; slot < 16; slot++) {
            assertThat(counts[slot]).as("ids in slot %d", slot).isBetween(700, 1_300);
        }
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "   ", "a{b", "a}b", "{rdb}"})
    void invalidPrefixesAreRejected(String prefix) {
        assertThatThrownBy(() -> new Keys(prefix, 1)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("prefix");
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1, Integer.MIN_VALUE})
    void slotCountsBelowOneAreRejected(int slotCount) {
        assertThatThrownBy(() -> new Keys("rdb", slotCount)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("slot count");
    }

    @Test
    void slotCountIsReported() {
        assertThat(new Keys("rdb", 12).slotCount()).isEqualTo(12);
    }

    private static List<String> allKeys(Keys keys, int slot) {
        return List.of(keys.due(slot), keys.inFlight(slot), keys.payloads(slot), keys.attempts(slot),
                keys.failingSince(slot), keys.claims(slot), keys.leaseClaimers(slot), keys.delivered(slot), keys.names(slot));
    }

    /** The part of a key Redis Cluster hashes: between the first '{' and the next '}'. */
    private static String hashTagOf(String key) {
        int open = key.indexOf('{');
        int close = key.indexOf('}', open);
        return key.substring(open + 1, close);
    }
}
