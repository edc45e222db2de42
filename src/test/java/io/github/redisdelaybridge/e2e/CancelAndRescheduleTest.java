package io.github.redisdelaybridge.e2e;

import static io.github.redisdelaybridge.testkit.KafkaBridgeFixture.headers;
import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.KafkaBridgeFixture;
import io.github.redisdelaybridge.testkit.KafkaTestClient.Received;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * "Cancel this order in 30 minutes unless it is paid", end to end through Kafka, Redis and the bridge:
 * cancel and reschedule by control message on the inbound topic and over HTTP, in either order.
 * Timing bounds are generous (the machine is shared): never before the due time, soon after it.
 */
class CancelAndRescheduleTest {

    private static final String NAME = "cancel";
    private static final String INBOUND = NAME + ".inbound";
    private static final String TARGET = NAME + ".target";
    private static final String DLQ = NAME + ".dlq";

    @RegisterExtension
    static final KafkaBridgeFixture bridge = new KafkaBridgeFixture(NAME, INBOUND, TARGET, DLQ);

    @Test
    void anOrderTimeoutCancelledOneSecondLaterIsNeverDelivered() throws Exception {
        bridge.kafka().sendAndWait(INBOUND, 0, bytes("order-1"), bytes("cancel order 1"), order("order-1-timeout", "3000"));
        Thread.sleep(1_000);
        bridge.kafka().sendAndWait(INBOUND, 0, bytes("order-1"), bytes("paid"), headers("x-control", "cancel", "x-message-id", "order-1-timeout"));

        Thread.sleep(2_000 + 5_000);

        assertThat(arrivalsOf("order-1-timeout")).isEmpty();
        assertThat(bodies()).doesNotContain("paid");
        assertThat(state("order-1-timeout")).isEqualTo("cancelled");
    }

    @Test
    void aCancelThatArrivesFirstOnAnotherPartitionStillWins() throws Exception {
        long droppedBefore = cancelledArrivals();
        bridge.kafka().sendAndWait(INBOUND, 1, null, bytes("paid early"), headers("x-control", "cancel", "x-message-id", "order-2-timeout"));
        awaitState("order-2-timeout", "cancelled");
        bridge.kafka().sendAndWait(INBOUND, 0, bytes("order-2"), bytes("cancel order 2"), order("order-2-timeout", "3000"));

        awaitCondition(() -> cancelledArrivals() > droppedBefore, "the late message is dropped and counted");
        Thread.sleep(3_000 + 4_000);

        assertThat(arrivalsOf("order-2-timeout")).isEmpty();
        assertThat(bodies()).doesNotContain("paid early");
        assertThat(state("order-2-timeout")).isEqualTo("cancelled");
    }

    @Test
    void rescheduleByControlMessageEarlierAndLater() throws Exception {
        bridge.kafka().sendAndWait(INBOUND, 0, bytes("k-early"), bytes("early"), order("resched-earlier", "60000"));
        bridge.kafka().sendAndWait(INBOUND, 0, bytes("k-late"), bytes("late"), order("resched-later", "5000"));
        awaitState("resched-earlier", "pending");
        awaitState("resched-later", "pending");

        long sentAt = System.currentTimeMillis();
        bridge.kafka().sendAndWait(INBOUND, 1, null, null, headers("x-control", "reschedule", "x-message-id", "resched-earlier", "x-delay", "1000"));
        bridge.kafka().sendAndWait(INBOUND, 1, null, null, headers("x-control", "reschedule", "x-message-id", "resched-later", "x-delay", "9000"));

        Received earlier = awaitArrival("resched-earlier", Duration.ofSeconds(20));
        Received later = awaitArrival("resched-later", Duration.ofSeconds(25));

        assertThat(earlier.receivedAtMs() - sentAt).as("earlier: not before the new due time, long before the old one")
                .isGreaterThanOrEqualTo(1_000).isLessThan(15_000);
        assertThat(later.receivedAtMs() - sentAt).as("later: not at the old due time, soon after the new one")
                .isGreaterThanOrEqualTo(9_000).isLessThan(19_000);
        assertThat(Long.parseLong(later.header("x-delay-due-at"))).isGreaterThanOrEqualTo(sentAt + 9_000 - 1_000);
        assertThat(later.record().key()).isEqualTo(bytes("k-late"));
        assertThat(later.record().value()).isEqualTo(bytes("late"));
        assertThat(later.header("trace")).isEqualTo("order-trace");
        assertThat(later.header("x-control")).isNull();
        assertThat(arrivalsOf("resched-later")).hasSize(1);
    }

    @Test
    void rescheduleOverHttpEarlierAndLater() throws Exception {
        bridge.kafka().sendAndWait(INBOUND, 0, null, bytes("http early"), order("http-earlier", "60000"));
        bridge.kafka().sendAndWait(INBOUND, 0, null, bytes("http late"), order("http-later", "5000"));
        awaitState("http-earlier", "pending");
        awaitState("http-later", "pending");

        long sentAt = System.currentTimeMillis();
        assertThat(bridge.api().put("/api/messages/http-earlier/due", "{\"delayMs\": 1000}").status()).isEqualTo(200);
        assertThat(bridge.api().put("/api/messages/http-later/due", "{\"deliverAt\": " + (System.currentTimeMillis() + 9_000) + "}").status()).isEqualTo(200);

        Received earlier = awaitArrival("http-earlier", Duration.ofSeconds(20));
        Received later = awaitArrival("http-later", Duration.ofSeconds(25));

        assertThat(earlier.receivedAtMs() - sentAt).isGreaterThanOrEqualTo(1_000).isLessThan(15_000);
        assertThat(later.receivedAtMs() - sentAt).isGreaterThanOrEqualTo(9_000).isLessThan(19_000);
        assertThat(later.record().value()).isEqualTo(bytes("http late"));
    }

    @Test
    void badControlMessagesAreDeadLetteredWithAReasonAndNeverDelivered() throws Exception {
        bridge.kafka().sendAndWait(INBOUND, 0, null, bytes("bad control 1"), headers("x-control", "pause", "x-message-id", "whatever"));
        bridge.kafka().sendAndWait(INBOUND, 0, null, bytes("bad control 2"), headers("x-control", "cancel"));
        bridge.kafka().sendAndWait(INBOUND, 0, null, bytes("bad control 3"), headers("x-control", "reschedule", "x-message-id", "x", "x-delay", "soon"));

        awaitCondition(() -> deadLetters().size() >= 3, "three dead letters");

        Map<String, String> reasons = new LinkedHashMap<>();
        for (Received dead : deadLetters()) {
            reasons.put(new String(dead.record().value(), StandardCharsets.UTF_8), dead.header("x-dead-letter-reason"));
        }
        assertThat(reasons).containsEntry("bad control 1", "invalid-control").containsEntry("bad control 2", "invalid-control")
                .containsEntry("bad control 3", "invalid-delay");
        assertThat(bridge.collector().received().stream().filter(r -> r.record().topic().equals(TARGET)).map(r -> text(r.record().value())))
                .noneMatch(body -> body != null && body.startsWith("bad control"));
    }

    // --- helpers ---------------------------------------------------------------------------------------------

    private static Map<String, String> order(String id, String delayMs) {
        return headers("x-delay", delayMs, "x-target", "kafka:" + TARGET, "x-message-id", id, "trace", "order-trace");
    }

    private static List<Received> arrivalsOf(String id) {
        return bridge.collector().received().stream().filter(r -> r.record().topic().equals(TARGET) && id.equals(r.header("x-message-id"))).toList();
    }

    private static List<Received> deadLetters() {
        return bridge.collector().received().stream().filter(r -> r.record().topic().equals(DLQ)).toList();
    }

    private static List<String> bodies() {
        return bridge.collector().received().stream().map(r -> text(r.record().value())).toList();
    }

    private static Received awaitArrival(String id, Duration timeout) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeout.toMillis();
        while (System.currentTimeMillis() < deadline) {
            List<Received> arrivals = arrivalsOf(id);
            if (!arrivals.isEmpty()) {
                return arrivals.get(0);
            }
            Thread.sleep(50);
        }
        throw new AssertionError(id + " did not arrive within " + timeout);
    }

    private static String state(String id) {
        return bridge.state(id);
    }

    private static void awaitState(String id, String state) throws InterruptedException {
        awaitCondition(() -> state(id).equals(state), id + " " + state);
    }

    private static long cancelledArrivals() {
        return bridge.api().get("/api/stats").json().get("thisInstance").get("cancelledArrivals").asLong();
    }

    private static void awaitCondition(BooleanSupplier condition, String what) throws InterruptedException {
        KafkaBridgeFixture.awaitCondition(condition, what, Duration.ofSeconds(20), Duration.ofMillis(50));
    }

    private static String text(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }
}
