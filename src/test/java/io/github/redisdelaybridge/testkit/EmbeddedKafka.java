package io.github.redisdelaybridge.testkit;

import kafka.testkit.KafkaClusterTestKit;
import kafka.testkit.TestKitNodes;

/**
 * A real single-node KRaft Kafka broker in this JVM, started once and shared by every test (topics are
 * unique per test, so tests do not see each other's records).
 */
public final class EmbeddedKafka {

    private static KafkaClusterTestKit cluster;

    private EmbeddedKafka() {
    }

    public static synchronized String bootstrapServers() {
        if (cluster == null) {
            cluster = start();
            Runtime.getRuntime().addShutdownHook(new Thread(EmbeddedKafka::stop, "embedded-kafka-stop"));
        }
        return cluster.bootstrapServers();
    }

    /** Starts a broker that lives until {@link KafkaClusterTestKit#close()}; used by the embedded launcher too. */
    public static KafkaClusterTestKit start() {
        return start(0);
    }

    /** Starts a broker listening on {@code port} of 127.0.0.1 (0: any free port). */
    public static KafkaClusterTestKit start(int port) {
        try {
            KafkaClusterTestKit kit = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
                    .setCombined(true)
                    .setNumBrokerNodes(1)
                    .setNumControllerNodes(1)
                    .build())
                    .setConfigProp("listeners", "EXTERNAL://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:0")
                    .setConfigProp("offsets.topic.replication.factor", "1")
                    .setConfigProp("offsets.topic.num.partitions", "4")
                    .setConfigProp("transaction.state.log.replication.factor", "1")
                    .setConfigProp("transaction.state.log.min.isr", "1")
                    .setConfigProp("group.initial.rebalance.delay.ms", "0")
                    .setConfigProp("auto.create.topics.enable", "true")
                    .setConfigProp("num.partitions", "1")
                    .setConfigProp("message.max.bytes", "16777216")
                    .setConfigProp("replica.fetch.max.bytes", "16777216")
                    .build();
            kit.format();
            kit.startup();
            kit.waitForReadyBrokers();
            return kit;
        } catch (Exception e) {
            throw new IllegalStateException("could not start the embedded Kafka broker", e);
        }
    }

    private static synchronized void stop() {
        try {
            cluster.close();
        } catch (Exception ignored) {
            // the JVM is exiting
        }
    }
}
