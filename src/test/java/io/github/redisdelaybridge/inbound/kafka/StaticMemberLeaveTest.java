package io.github.redisdelaybridge.inbound.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import io.github.redisdelaybridge.testkit.FreePorts;
import io.github.redisdelaybridge.testkit.LogCapture;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A static member that cannot leave its group (no broker answers, or the admin client cannot even be built) still
 * closes: the stop goes on, a warning says the partitions move only after the session timeout. Real Kafka clients,
 * pointed at a loopback port where nothing listens.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class StaticMemberLeaveTest {

    private static final String GROUP = "static-member-leave-test";
    /** Short, so the test is quick; the bridge waits 5 s. */
    private static final Duration LEAVE_TIMEOUT = Duration.ofSeconds(1);
    /** The leave's timeout, plus the admin client's close (up to 1 s) and its start, with room for a busy machine. */
    private static final long BOUND_MS = 6_000;

    @Test
    void aLeaveNoBrokerAnswersReturnsWithAWarning() {
        try (LogCapture logs = new LogCapture()) {
            long start = System.nanoTime();

            new StaticMemberLeave(LEAVE_TIMEOUT).leave(consumerProperties(nothingListens()), "node-a-0");

            assertThat(elapsedMs(start)).as("ms the leave took").isLessThan(BOUND_MS);
            assertThat(warnings(logs)).singleElement().asString()
                    .contains("Kafka consumer node-a-0 could not leave group " + GROUP, "after the session timeout");
        }
    }

    @Test
    void aLeaveWhoseAdminClientCannotBeBuiltReturnsWithAWarning() {
        try (LogCapture logs = new LogCapture()) {
            new StaticMemberLeave(LEAVE_TIMEOUT).leave(consumerProperties("not-a-host-and-port"), "node-a-0");

            assertThat(warnings(logs)).singleElement().asString().contains("Kafka consumer node-a-0 could not leave group " + GROUP,
                    "Invalid url in bootstrap.servers: not-a-host-and-port"); // the root cause, not "Failed to create new KafkaAdminClient"
        }
    }

    @Test
    void aStoppingStaticConsumerWhoseLeaveFailsClosesWithoutThrowing() {
        GroupInstanceIds ids = new GroupInstanceIds("node-a");
        ObservedKafkaClientFactory factory = new ObservedKafkaClientFactory(new SimpleMeterRegistry(), new KafkaConsumerAssignments(),
                ids, () -> true, new StaticMemberLeave(LEAVE_TIMEOUT));
        Consumer<?, ?> consumer = factory.getConsumer(consumerProperties(nothingListens()));
        try (LogCapture logs = new LogCapture()) {
            long start = System.nanoTime();

            consumer.close(); // would throw out of the test if the failed leave escaped

            assertThat(elapsedMs(start)).as("ms the close took").isLessThan(BOUND_MS);
            assertThat(warnings(logs)).singleElement().asString().contains("Kafka consumer node-a-0 could not leave group " + GROUP);
        }
        assertThat(ids.take()).as("the closed consumer's id, free again for its successor").isEqualTo("node-a-0");
    }

    private static String nothingListens() {
        return "127.0.0.1:" + FreePorts.next();
    }

    /** What a consumer of the inbound route is given, before its {@code group.instance.id}. */
    private static Properties consumerProperties(String bootstrapServers) {
        Properties properties = new Properties();
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        properties.put(ConsumerConfig.GROUP_ID_CONFIG, GROUP);
        properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        return properties;
    }

    private static List<String> warnings(LogCapture logs) {
        return logs.messagesAtLeast(Level.WARN, StaticMemberLeave.class.getName());
    }

    private static long elapsedMs(long startNanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    }
}
