package io.github.redisdelaybridge.e2e;

import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.KafkaBridgeFixture;
import io.github.redisdelaybridge.testkit.KafkaTestClient.Received;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code x-control: replace} end to end through Kafka, Redis and the bridge: a pending message replaced before it is
 * due arrives once, with the replacement's body, key, headers and target, at the new due time, and the old target gets
 * nothing; a replace that finds nothing pending is dead-lettered as {@code not-replaced}. Timing bounds are generous.
 */
class ReplaceInPlaceTest {

    private static final String NAME = "replace";
    private static final String INBOUND = NAME + ".inbound";
    private static final String OLD_TARGET = NAME + ".old";
    private static final String NEW_TARGET = NAME + ".new";
    private static final String DLQ = NAME + ".dlq";

    @RegisterExtension
    static final KafkaBridgeFixture bridge = new KafkaBridgeFixture(NAME, INBOUND, OLD_TARGET, NEW_TARGET, DLQ);

    @Test
    void aMessageReplacedBeforeItIsDueArrivesOnceWithTheNewPayloadAtTheNewDueTimeByteForByte() throws Exception {
        send(bytes("old key"), bytes("old body"), List.of(text("x-delay", "4000"), text("x-target", "kafka:" + OLD_TARGET),
                text("x-message-id", "order-42-reminder"), text("trace", "old"), text("only-old", "1")));
        awaitState("order-42-reminder", "pending");

        byte[] newKey = {0, (byte) 0xFF, 'k'};
        byte[] newBody = {(byte) 0xC3, 0x28, 0, 'n', 'e', 'w', (byte) 0x80};
        byte[] binaryHeader = {(byte) 0xFE, 0, 1};
        long sentAt = System.currentTimeMillis();
        send(newKey, newBody, List.of(text("x-control", "replace"), text("x-message-id", "order-42-reminder"), text("x-delay", "7000"),
                text("x-target", "kafka:" + NEW_TARGET), new RecordHeader("trace", binaryHeader), text("only-new", "2"), text("trace-2", "")));

        Received arrived = awaitArrival(NEW_TARGET, "order-42-reminder", Duration.ofSeconds(30));
        assertThat(arrived.receivedAtMs() - sentAt).as("not before the new due time, soon after it").isGreaterThanOrEqualTo(7_000)
                .isLessThan(22_000);
        assertThat(Long.parseLong(arrived.header("x-delay-due-at"))).isGreaterThanOrEqualTo(sentAt + 7_000 - 1_000);
        assertThat(arrived.record().key()).isEqualTo(newKey);
        assertThat(arrived.record().value()).isEqualTo(newBody);
        assertThat(userHeaders(arrived)).containsExactly("trace=" + Arrays.toString(binaryHeader), "only-new=" + Arrays.toString(bytes("2")),
                "trace-2=[]");
        assertThat(arrived.header("x-control")).isNull();

        Thread.sleep(5_000);
        assertThat(arrivals(NEW_TARGET, "order-42-reminder")).as("exactly once").hasSize(1);
        assertThat(arrivals(OLD_TARGET, "order-42-reminder")).as("the old target gets nothing").isEmpty();
        assertThat(deadLetters()).noneMatch(d -> "order-42-reminder".equals(d.header("x-message-id")));
    }

    @Test
    void aReplaceThatFindsNothingPendingIsDeadLetteredAsNotReplacedAndNeverDelivered() throws Exception {
        send(null, bytes("delivered at once"), List.of(text("x-delay", "0"), text("x-target", "kafka:" + OLD_TARGET),
                text("x-message-id", "delivered-1")));
        awaitArrival(OLD_TARGET, "delivered-1", Duration.ofSeconds(20));

        send(null, bytes("too late"), List.of(text("x-control", "replace"), text("x-message-id", "delivered-1"), text("x-delay", "0"),
                text("x-target", "kafka:" + NEW_TARGET)));
        send(null, bytes("nothing to replace"), List.of(text("x-control", "replace"), text("x-message-id", "never-sent"),
                text("x-delay", "0"), text("x-target", "kafka:" + NEW_TARGET)));

        awaitCondition(() -> deadLetterOf("too late") != null && deadLetterOf("nothing to replace") != null, "two dead letters");
        assertThat(deadLetterOf("too late").header("x-dead-letter-reason")).isEqualTo("not-replaced");
        assertThat(deadLetterOf("too late").header("x-dead-letter-detail")).contains("'delivered-1'").contains("delivered already");
        assertThat(deadLetterOf("nothing to replace").header("x-dead-letter-reason")).isEqualTo("not-replaced");
        assertThat(deadLetterOf("nothing to replace").header("x-dead-letter-detail")).contains("'never-sent'").contains("names no pending");
        Thread.sleep(2_000);
        assertThat(arrivals(NEW_TARGET, "delivered-1")).isEmpty();
        assertThat(arrivals(NEW_TARGET, "never-sent")).isEmpty();
        assertThat(arrivals(OLD_TARGET, "delivered-1")).as("delivered once, before the replace").hasSize(1);
        assertThat(state("never-sent")).isEqualTo("unknown");
    }

    // --- helpers ---------------------------------------------------------------------------------------------

    private static void send(byte[] key, byte[] value, List<Header> headers) throws Exception {
        bridge.kafka().send(INBOUND, key, value, headers).get();
    }

    private static Header text(String name, String value) {
        return new RecordHeader(name, bytes(value));
    }

    /** The headers the target got besides those the bridge adds, in order, each as name=bytes. */
    private static List<String> userHeaders(Received received) {
        List<String> headers = new ArrayList<>();
        for (Header header : received.record().headers()) {
            if (!header.key().startsWith("x-")) {
                headers.add(header.key() + "=" + Arrays.toString(header.value()));
            }
        }
        return headers;
    }

    private static List<Received> arrivals(String topic, String id) {
        return bridge.collector().received().stream().filter(r -> r.record().topic().equals(topic) && id.equals(r.messageId())).toList();
    }

    private static List<Received> deadLetters() {
        return bridge.collector().received().stream().filter(r -> r.record().topic().equals(DLQ)).toList();
    }

    private static Received deadLetterOf(String body) {
        return deadLetters().stream().filter(d -> Arrays.equals(d.record().value(), bytes(body))).findFirst().orElse(null);
    }

    private static Received awaitArrival(String topic, String id, Duration timeout) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeout.toMillis();
        while (System.currentTimeMillis() < deadline) {
            List<Received> arrived = arrivals(topic, id);
            if (!arrived.isEmpty()) {
                return arrived.get(0);
            }
            Thread.sleep(50);
        }
        throw new AssertionError(id + " did not arrive on " + topic + " within " + timeout);
    }

    private static String state(String id) {
        return bridge.state(id);
    }

    private static void awaitState(String id, String state) throws InterruptedException {
        awaitCondition(() -> state(id).equals(state), id + " " + state);
    }

    private static void awaitCondition(BooleanSupplier condition, String what) throws InterruptedException {
        KafkaBridgeFixture.awaitCondition(condition, what, Duration.ofSeconds(20), Duration.ofMillis(50));
    }
}
