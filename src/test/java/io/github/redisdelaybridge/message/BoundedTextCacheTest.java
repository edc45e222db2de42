package io.github.redisdelaybridge.message;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BoundedTextCacheTest {

    private static final long MAX_BYTES = 1L << 20;

    @Test
    void longDistinctTextsKeepTheAccountedBytesWithinTheBound() {
        BoundedTextCache<String> cache = new BoundedTextCache<>(10_000, MAX_BYTES, BoundedTextCache::stringBytes);
        for (int i = 0; i < 20_000; i++) {
            String text = i + "x".repeat(1_000);
            assertThat(cache.get(text, t -> "value of " + t.length())).isEqualTo("value of " + text.length());
            assertThat(cache.bytes()).isLessThanOrEqualTo(MAX_BYTES);
        }
        assertThat(cache.size()).as("entries held at the end").isPositive().isLessThan(1_000);
    }

    @Test
    void aTextTooLongForItsShareIsComputedEachTimeAndNeverRemembered() {
        BoundedTextCache<Integer> cache = new BoundedTextCache<>(10, MAX_BYTES, value -> 16);
        String huge = "y".repeat(1 << 20);
        int[] computed = {0};
        for (int i = 0; i < 3; i++) {
            assertThat(cache.get(huge, t -> ++computed[0])).isEqualTo(i + 1);
        }
        assertThat(cache.size()).isZero();
        assertThat(cache.bytes()).isZero();
    }

    @Test
    void aRememberedValueIsTheSameInstanceAndTheCountBoundStartsTheMemoryAgain() {
        BoundedTextCache<StringBuilder> cache = new BoundedTextCache<>(3, MAX_BYTES, value -> 32);
        StringBuilder first = cache.get("a", StringBuilder::new);
        assertThat(cache.get("a", StringBuilder::new)).isSameAs(first);
        cache.get("b", StringBuilder::new);
        cache.get("c", StringBuilder::new);
        cache.get("d", StringBuilder::new);
        assertThat(cache.size()).isEqualTo(1);
        assertThat(cache.get("a", StringBuilder::new)).isNotSameAs(first);
    }
}
