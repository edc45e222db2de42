package io.github.redisdelaybridge.inbound.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Every open consumer has an id of its own; a restarted instance, and a re-created consumer, take the same ids again. */
class GroupInstanceIdsTest {

    @Test
    void openConsumersGetDistinctNumberedIds() {
        GroupInstanceIds ids = new GroupInstanceIds("bridge-0");

        assertThat(new String[] {ids.take(), ids.take(), ids.take()}).containsExactly("bridge-0-0", "bridge-0-1", "bridge-0-2");
    }

    @Test
    void aReleasedIdIsTakenAgainByTheNextConsumer() {
        GroupInstanceIds ids = new GroupInstanceIds("bridge-0");
        ids.take();
        String second = ids.take();
        ids.take();

        ids.release(second);

        assertThat(ids.take()).as("a consumer re-created after an error rejoins as the one it replaces").isEqualTo(second);
        assertThat(ids.take()).isEqualTo("bridge-0-3");
    }

    @Test
    void anotherInstanceWithTheSameIdStartsFromTheSameNumbers() {
        GroupInstanceIds before = new GroupInstanceIds("node-a");
        GroupInstanceIds restarted = new GroupInstanceIds("node-a");

        assertThat(restarted.take()).isEqualTo(before.take()).isEqualTo("node-a-0");
    }

    @Test
    void anIdOfAnotherInstanceIsNotReleased() {
        GroupInstanceIds ids = new GroupInstanceIds("node-a");
        ids.take();

        ids.release("node-b-0");

        assertThat(ids.take()).isEqualTo("node-a-1");
    }
}
