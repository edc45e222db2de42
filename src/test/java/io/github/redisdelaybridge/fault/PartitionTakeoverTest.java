package io.github.redisdelaybridge.fault;

import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.BridgeProcess;
import io.github.redisdelaybridge.testkit.ChildProcess;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.LocalRedis;
import io.github.redisdelaybridge.testkit.TargetCollector;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Two bridges share the inbound partitions as static members of one group; when one goes away, the other takes its
 * partitions over: within the session timeout and a rebalance when it died (SIGKILL, no restart), at once when it was
 * stopped (it left the group). A message published to the gone instance's partitions afterwards is delivered.
 */
class PartitionTakeoverTest {

    private static final int PARTITIONS = 6;
    /** The shipped bridge.kafka.session-timeout-ms. */
    private static final long SESSION_TIMEOUT_MS = 15_000;
    /** What docs/running.md promises beyond the session timeout (a heartbeat and a rebalance, about 5 s), and slack for a loaded machine. */
    private static final long TAKEOVER_MARGIN_MS = 10_000;

    @Test
    void theSurvivorTakesOverTheKilledInstancesPartitionsWithinTheSessionTimeout() throws Exception {
        String name = "takeover-kill";
        Map<String, String> settings = settings(name);
        try (KafkaTestClient kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
             TargetCollector collector = new TargetCollector(kafka, name + ".target", settings.get("bridge.dead-letter.kafka-topic"));
             ChildProcess survivor = BridgeProcess.start(name + "-a", withId(settings, name + "-a"))) {
            Set<Integer> partitionsOfTheKilled;
            try (ChildProcess killed = BridgeProcess.start(name + "-b", withId(settings, name + "-b"))) {
                partitionsOfTheKilled = partitionsOf(name + "-b", awaitMembers(kafka, name));
                killed.kill();
            }
            long killedAt = System.currentTimeMillis();
            Map<Integer, Long> arrivals = publishToEveryPartition(kafka, collector, name, Duration.ofMillis(SESSION_TIMEOUT_MS + 30_000));

            long takeoverMs = latest(arrivals, partitionsOfTheKilled) - killedAt;
            long survivorsOwnMs = latest(arrivals, others(partitionsOfTheKilled)) - killedAt;
            System.out.printf("PartitionTakeoverTest: the killed instance's partitions %s consumed again %d ms after the kill"
                    + " (session timeout %d ms); the survivor's own after %d ms%n", partitionsOfTheKilled, takeoverMs, SESSION_TIMEOUT_MS, survivorsOwnMs);
            assertThat(arrivals).as("a message on every partition delivered").hasSize(PARTITIONS);
            assertThat(takeoverMs).as("takeover within the session timeout + %d ms", TAKEOVER_MARGIN_MS)
                    .isLessThanOrEqualTo(SESSION_TIMEOUT_MS + TAKEOVER_MARGIN_MS);
            assertThat(survivorsOwnMs).as("the survivor's own partitions go on meanwhile").isLessThan(5_000);
            assertThat(kafka.groupMembers(name + "-bridge").keySet()).containsExactly(name + "-a-0", name + "-a-1", name + "-a-2");
        }
    }

    @Test
    void aStoppedInstanceLeavesTheGroupSoItsPartitionsMoveAtOnce() throws Exception {
        String name = "takeover-stop";
        Map<String, String> settings = settings(name);
        // Kafka's default: a stopped instance that stayed a member would hold its partitions this long
        settings.put("bridge.kafka.session-timeout-ms", "45000");
        try (KafkaTestClient kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
             TargetCollector collector = new TargetCollector(kafka, name + ".target", settings.get("bridge.dead-letter.kafka-topic"));
             ChildProcess survivor = BridgeProcess.start(name + "-a", withId(settings, name + "-a"))) {
            Set<Integer> partitionsOfTheStopped;
            long stoppedAt;
            try (ChildProcess stopped = BridgeProcess.start(name + "-b", withId(settings, name + "-b"))) {
                partitionsOfTheStopped = partitionsOf(name + "-b", awaitMembers(kafka, name));
                stoppedAt = System.currentTimeMillis();
                stopped.stop(Duration.ofSeconds(40));
                assertThat(stopped.logText()).contains("Kafka consumer " + name + "-b-0 left group");
            }
            long exitedMs = System.currentTimeMillis() - stoppedAt;
            Map<Integer, Long> arrivals = publishToEveryPartition(kafka, collector, name, Duration.ofSeconds(60));

            long takeoverMs = latest(arrivals, partitionsOfTheStopped) - stoppedAt;
            System.out.printf("PartitionTakeoverTest: the stopped instance's partitions %s consumed again %d ms after SIGTERM"
                    + " (it exited after %d ms)%n", partitionsOfTheStopped, takeoverMs, exitedMs);
            assertThat(arrivals).as("a message on every partition delivered").hasSize(PARTITIONS);
            assertThat(takeoverMs).as("well before the 45 s session timeout").isLessThan(15_000);
            assertThat(kafka.groupMembers(name + "-bridge").keySet()).containsExactly(name + "-a-0", name + "-a-1", name + "-a-2");
        }
    }

    private static Map<String, String> settings(String name) {
        LocalRedis.deleteKeys("test-" + name);
        Map<String, String> settings = BridgeInstance.settings(name, LocalRedis.URI);
        settings.remove("camel.server.port");
        settings.remove("camel.management.port");
        try (KafkaTestClient kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers())) {
            kafka.createTopics(PARTITIONS, settings.get("bridge.kafka.inbound-topics"));
            kafka.createTopics(1, name + ".target");
        }
        return settings;
    }

    private static Map<String, String> withId(Map<String, String> settings, String instanceId) {
        Map<String, String> copy = new LinkedHashMap<>(settings);
        copy.put("bridge.instance-id", instanceId);
        return copy;
    }

    /** Waits until both instances' three consumers are static members of the group, every partition assigned. */
    private static Map<String, Set<Integer>> awaitMembers(KafkaTestClient kafka, String name) throws InterruptedException {
        List<String> expected = List.of(name + "-a-0", name + "-a-1", name + "-a-2", name + "-b-0", name + "-b-1", name + "-b-2");
        long deadline = System.currentTimeMillis() + 60_000;
        Map<String, Set<Integer>> members = kafka.groupMembers(name + "-bridge");
        while (!(members.keySet().equals(new TreeSet<>(expected)) && members.values().stream().mapToInt(Set::size).sum() == PARTITIONS)
                && System.currentTimeMillis() < deadline) {
            Thread.sleep(200);
            members = kafka.groupMembers(name + "-bridge");
        }
        assertThat(members.keySet()).as("one static member per consumer of each instance").containsExactlyElementsOf(expected);
        return members;
    }

    private static Set<Integer> partitionsOf(String instanceId, Map<String, Set<Integer>> members) {
        Set<Integer> partitions = new TreeSet<>();
        members.forEach((member, assigned) -> {
            if (member.startsWith(instanceId + "-")) {
                partitions.addAll(assigned);
            }
        });
        assertThat(partitions).as("partitions of %s", instanceId).isNotEmpty();
        return partitions;
    }

    private static Set<Integer> others(Set<Integer> partitions) {
        Set<Integer> others = new TreeSet<>();
        for (int p = 0; p < PARTITIONS; p++) {
            if (!partitions.contains(p)) {
                others.add(p);
            }
        }
        return others;
    }

    /** Publishes one message due at once to each inbound partition; returns when each was delivered, by partition. */
    private static Map<Integer, Long> publishToEveryPartition(KafkaTestClient kafka, TargetCollector collector, String name, Duration timeout)
            throws InterruptedException {
        Map<String, Integer> partitionById = new LinkedHashMap<>();
        for (int partition = 0; partition < PARTITIONS; partition++) {
            String id = name + "-p" + partition;
            partitionById.put(id, partition);
            kafka.sendAndWait(name + ".inbound", partition, null, bytes(id),
                    Map.of("x-delay", "0", "x-target", "kafka:" + name + ".target", "x-message-id", id));
        }
        Map<Integer, Long> arrivals = new LinkedHashMap<>();
        collector.awaitArrivals(partitionById.keySet(), timeout).forEach((id, at) -> arrivals.put(partitionById.get(id), at));
        return arrivals;
    }

    private static long latest(Map<Integer, Long> arrivals, Set<Integer> partitions) {
        List<Long> times = partitions.stream().filter(arrivals::containsKey).map(arrivals::get).toList();
        assertThat(times).as("deliveries from partitions %s", partitions).hasSameSizeAs(partitions);
        return Collections.max(times);
    }
}
