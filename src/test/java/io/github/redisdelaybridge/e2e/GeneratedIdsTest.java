package io.github.redisdelaybridge.e2e;

import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.KafkaTestClient.Received;
import io.github.redisdelaybridge.testkit.LocalRedis;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import kafka.testkit.KafkaClusterTestKit;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The ids the bridge gives messages without an {@code x-message-id} are unique per topic incarnation, and no producer can
 * name one: a topic deleted and created again, or the same topic on a fresh broker with the same Redis, starts its offsets
 * from 0 again, and its messages (the same texts too) are delivered, not dropped as copies of the earlier incarnation's;
 * a control message naming the id another producer's message will get is refused as {@code invalid-message-id}, and that
 * message is delivered.
 */
class GeneratedIdsTest {

    private static final Map<String, String> NOW = Map.of("x-delay", "0");

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void aTopicDeletedAndCreatedAgainDeliversItsNewMessages() throws Exception {
        String name = "generated-ids-recreated";
        String inbound = name + ".inbound";
        String target = name + ".target";
        LocalRedis.deleteKeys("test-" + name);
        try (KafkaTestClient kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
             Admin admin = Admin.create(Map.of("bootstrap.servers", EmbeddedKafka.bootstrapServers()))) {
            kafka.createTopics(1, inbound, target, name + ".dlq");
            Map<String, String> settings = withTarget(BridgeInstance.settings(name, LocalRedis.URI), inbound, target);
            try (BridgeInstance bridge = BridgeInstance.start(settings)) {
                kafka.sendAndWait(inbound, null, bytes("hello"), NOW);
                List<Received> first = kafka.consume(target, 1, Duration.ofSeconds(30));
                assertThat(first).extracting(r -> new String(r.record().value())).containsExactly("hello");
            }
            // The topic goes and comes back while no consumer of the group holds it: a consumer that keeps its assignment
            // across a deletion it has not seen keeps its position too, and skips the new topic's first offsets (Kafka's
            // consumer does that, whatever the bridge does; docs/failures.md, Reused ids).
            String firstTopicId = topicIdOf(admin, inbound);
            admin.deleteTopics(Set.of(inbound)).all().get();
            awaitCondition(() -> !kafka.topicExists(inbound), Duration.ofSeconds(30), "the topic is deleted");
            createAgain(kafka, inbound);
            assertThat(topicIdOf(admin, inbound)).as("a new incarnation").isNotEqualTo(firstTopicId);
            kafka.sendAndWait(inbound, null, bytes("hello"), NOW);
            kafka.sendAndWait(inbound, null, bytes("hello again"), NOW);
            try (BridgeInstance bridge = BridgeInstance.start(settings)) {
                List<Received> all = kafka.consume(target, 3, Duration.ofSeconds(90), Duration.ofSeconds(1));
                assertThat(all).extracting(r -> new String(r.record().value())).as("the new incarnation's messages, the same text too")
                        .containsExactly("hello", "hello", "hello again");
                assertThat(all.get(1).messageId()).as("offset 0 of the new topic").isNotEqualTo(all.get(0).messageId());
            }
        }
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void aFreshBrokerWithTheSameRedisDeliversTheSameMessagesAgain() throws Exception {
        String name = "generated-ids-fresh-broker";
        String inbound = name + ".inbound";
        String target = name + ".target";
        LocalRedis.deleteKeys("test-" + name);
        String firstId = null;
        for (int session = 1; session <= 2; session++) {
            // as bin/run-embedded restarted: a broker of its own each time (formatted anew), the same Redis keys
            try (KafkaClusterTestKit broker = EmbeddedKafka.start();
                 KafkaTestClient kafka = new KafkaTestClient(broker.bootstrapServers())) {
                kafka.createTopics(1, inbound, target, name + ".dlq");
                Map<String, String> settings = withTarget(BridgeInstance.settings(name, LocalRedis.URI), inbound, target);
                settings.put("bridge.kafka.bootstrap-servers", broker.bootstrapServers());
                try (BridgeInstance bridge = BridgeInstance.start(settings)) {
                    kafka.sendAndWait(inbound, null, bytes("hello"), NOW);
                    List<Received> delivered = kafka.consume(target, 1, Duration.ofSeconds(60));
                    assertThat(delivered).extracting(r -> new String(r.record().value())).as("session " + session).containsExactly("hello");
                    if (firstId == null) {
                        firstId = delivered.get(0).messageId();
                    } else {
                        assertThat(delivered.get(0).messageId()).isNotEqualTo(firstId);
                    }
                }
            }
        }
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void aGuessedGeneratedIdCannotCancelAnotherProducersMessage() throws Exception {
        String name = "generated-ids-guessed";
        String inbound = name + ".inbound";
        String target = name + ".target";
        String dlq = name + ".dlq";
        LocalRedis.deleteKeys("test-" + name);
        try (KafkaTestClient kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers())) {
            kafka.createTopics(1, inbound, target, dlq);
            try (BridgeInstance bridge = BridgeInstance.start(withTarget(BridgeInstance.settings(name, LocalRedis.URI), inbound, target))) {
                // the attacker learns the id form from a message of its own (offset 0), and guesses the victim's: offset 2
                kafka.sendAndWait(inbound, 0, null, bytes("probe"), NOW);
                String probeId = kafka.consume(target, 1, Duration.ofSeconds(30)).get(0).messageId();
                assertThat(probeId).endsWith("-0-0");
                String victimId = probeId.substring(0, probeId.length() - 1) + "2";
                kafka.sendAndWait(inbound, 0, null, bytes(""), Map.of("x-control", "cancel", "x-message-id", victimId));
                kafka.sendAndWait(inbound, 0, null, bytes("victim"), Map.of("x-delay", "1000"));

                List<Received> delivered = kafka.consume(target, 2, Duration.ofSeconds(30), Duration.ofSeconds(1));
                assertThat(delivered).extracting(r -> new String(r.record().value())).as("the victim's message is delivered")
                        .containsExactly("probe", "victim");
                assertThat(delivered.get(1).messageId()).isEqualTo(victimId);
                List<Received> dead = kafka.consume(dlq, 1, Duration.ofSeconds(30));
                assertThat(dead).hasSize(1);
                assertThat(dead.get(0).header("x-dead-letter-reason")).isEqualTo("invalid-message-id");
                assertThat(dead.get(0).header("x-dead-letter-detail")).contains("generated");
                String controlId = probeId.substring(0, probeId.length() - 1) + "1";
                assertThat(bridge.httpGet("/api/dead-letters/" + controlId)).as("kept under its own id").startsWith("200 ");
                assertThat(bridge.httpGet("/api/dead-letters/" + victimId)).as("not under the victim's").startsWith("404 ");
            }
        }
    }

    /** Creates the topic again, unless the bridge's consumer already did (the broker creates topics a client asks for). */
    private static void createAgain(KafkaTestClient kafka, String topic) {
        try {
            kafka.createTopics(1, topic);
        } catch (IllegalStateException e) {
            assertThat(e).hasRootCauseInstanceOf(org.apache.kafka.common.errors.TopicExistsException.class);
        }
    }

    /** The topic's id, once the broker's metadata has the topic (just after its creation it may not yet). */
    private static String topicIdOf(Admin admin, String topic) throws Exception {
        long deadline = System.currentTimeMillis() + 30_000;
        while (true) {
            try {
                return admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).topicId().toString();
            } catch (java.util.concurrent.ExecutionException e) {
                if (!(e.getCause() instanceof org.apache.kafka.common.errors.UnknownTopicOrPartitionException)
                        || System.currentTimeMillis() > deadline) {
                    throw e;
                }
                Thread.sleep(100);
            }
        }
    }

    private static Map<String, String> withTarget(Map<String, String> settings, String inbound, String target) {
        settings.put("bridge.kafka.default-targets", inbound + "=kafka:" + target);
        return settings;
    }

    private static void awaitCondition(java.util.function.BooleanSupplier condition, Duration timeout, String what) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeout.toMillis();
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.sleep(100);
        }
    }
}
