package io.github.redisdelaybridge.store.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.Utf8;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The copy of a slot's names hash answers per tag: a claim is read with the names of the hash it saw, never another's. */
class SlotNamesTest {

    @Test
    void namesAreKeptPerTagSoAReplacedHashNeverLendsItsCodes() {
        SlotNames names = new SlotNames();
        names.learn(7, Map.of(1L, Utf8.bytes("kafka:orders")));
        names.learn(9, Map.of(1L, Utf8.bytes("kafka:payments")));

        assertThat(names.nameOf(7, 1)).asString().isEqualTo("kafka:orders");
        assertThat(names.nameOf(9, 1)).asString().isEqualTo("kafka:payments");
        assertThat(names.nameOf(-1, 1)).as("a hash without a tag has no names").isNull();
        assertThat(names.nameOf(7, 2)).as("a code not learnt yet").isNull();
    }

    @Test
    void onlyTheTwoLatestTagsAreKept() {
        SlotNames names = new SlotNames();
        names.learn(1, Map.of(1L, Utf8.bytes("a")));
        names.learn(2, Map.of(1L, Utf8.bytes("b")));
        names.learn(3, Map.of(1L, Utf8.bytes("c")));

        assertThat(names.nameOf(1, 1)).isNull();
        assertThat(names.nameOf(2, 1)).asString().isEqualTo("b");
        assertThat(names.nameOf(3, 1)).asString().isEqualTo("c");
    }
}
