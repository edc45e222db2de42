package io.github.redisdelaybridge.e2e;

import static io.github.redisdelaybridge.testkit.KafkaBridgeFixture.headers;
import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.redisdelaybridge.testkit.AdminApiClient;
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
 * Groups end to end through Kafka, Redis and the bridge: x-group indexes messages, and a control message or the admin API
 * cancels or reschedules all of a group's pending messages at once; bad x-group values are dead-lettered.
 */
class GroupsTest {

    private static final String NAME = "groups";
    private static final String INBOUND = NAME + ".inbound";
    private static final String TARGET = NAME + ".target";
    private static final String DLQ = NAME + ".dlq";

    @RegisterExtension
    static final KafkaBridgeFixture bridge = new KafkaBridgeFixture(NAME, INBOUND, TARGET, DLQ);

    @Test
    void aCancelGroupControlMessageWithdrawsTheWholeGroupAndNothingElse() throws Exception {
        for (int i = 0; i < 20; i++) {
            bridge.kafka().sendAndWait(INBOUND, i % 2, null, bytes("order 7 step " + i), grouped("o7-" + i, "order-7", "4000"));
        }
        bridge.kafka().sendAndWait(INBOUND, 0, null, bytes("order 8"), grouped("o8", "order-8", "4000"));
        awaitCondition(() -> count("order-7", "pending") == 20, "20 messages of order-7 pending");

        bridge.kafka().sendAndWait(INBOUND, 1, null, bytes("paid"), headers("x-control", "cancel-group", "x-group", "order-7"));

        awaitCondition(() -> count("order-7", "pending") == 0, "order-7 cancelled");
        assertThat(state("o7-3")).isEqualTo("cancelled");
        awaitCondition(() -> bridge.api().get("/observe/metrics").text().contains("bridge_group_operations_total{operation=\"cancel-group\",via=\"message\"} 1.0"),
                "the operation counted");
        assertThat(bridge.api().get("/observe/metrics").text())
                .contains("bridge_group_messages_total{operation=\"cancel-group\",outcome=\"changed\",via=\"message\"} 20.0");
        Received other = awaitArrival("o8");
        assertThat(other.header("x-group")).as("x-group is delivered as it came").isEqualTo("order-8");
        Thread.sleep(2_000);
        assertThat(bridge.collector().received().stream().filter(r -> r.record().topic().equals(TARGET))
                .map(r -> r.header("x-message-id"))).noneMatch(id -> id.startsWith("o7-"));
    }

    @Test
    void aRescheduleGroupControlMessageMovesTheWholeGroup() throws Exception {
        for (int i = 0; i < 5; i++) {
            bridge.kafka().sendAndWait(INBOUND, 0, null, bytes("r " + i), grouped("r-" + i, "resched", "600000"));
        }
        awaitCondition(() -> count("resched", "pending") == 5, "5 pending");
        long sentAt = System.currentTimeMillis();

        bridge.kafka().sendAndWait(INBOUND, 1, null, null, headers("x-control", "reschedule-group", "x-group", "resched", "x-delay", "1000"));

        for (int i = 0; i < 5; i++) {
            assertThat(awaitArrival("r-" + i).receivedAtMs() - sentAt).isGreaterThanOrEqualTo(1_000).isLessThan(20_000);
        }
        awaitCondition(() -> count("resched", "pending") == 0 && count("resched", "inFlight") == 0, "the index emptied as they left");
    }

    @Test
    void theAdminApiCountsListsCancelsAndReschedulesAGroup() throws Exception {
        for (int i = 0; i < 6; i++) {
            bridge.kafka().sendAndWait(INBOUND, 0, null, bytes("api " + i), grouped("api-" + i, "api group/1", String.valueOf(600_000 + i * 1_000)));
        }
        String path = "/api/groups/api%20group%2F1";
        awaitCondition(() -> count("api group/1", "pending") == 6, "6 pending");

        AdminApiClient.Response page = bridge.api().get(path + "?limit=4");
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.json().get("messages")).hasSize(4);
        assertThat(page.json().get("messages").get(0).get("id").asText()).isEqualTo("api-0");
        assertThat(page.json().get("nextCursor").isNull()).isFalse();
        JsonNode rest = bridge.api().get(path + "?limit=4&cursor=" + page.json().get("nextCursor").asText()).json();
        assertThat(rest.get("messages")).hasSize(2);
        assertThat(rest.get("messages").get(1).get("id").asText()).isEqualTo("api-5");

        AdminApiClient.Response dryRun = bridge.api().delete(path + "?dry-run=true");
        assertThat(dryRun.status()).isEqualTo(200);
        assertThat(dryRun.json().get("cancelled").asLong()).isEqualTo(6);
        assertThat(count("api group/1", "pending")).as("a dry run changes nothing").isEqualTo(6);

        AdminApiClient.Response moved = bridge.api().post(path + "/reschedule", "{\"delayMs\": 700000}");
        assertThat(moved.status()).isEqualTo(200);
        assertThat(moved.json().get("rescheduled").asLong()).isEqualTo(6);
        assertThat(bridge.api().get("/api/messages/api-2").json().get("dueAt").asLong()).isEqualTo(moved.json().get("dueAt").asLong());

        AdminApiClient.Response tooLate = bridge.api().post(path + "/reschedule", "{\"delayMs\": 999999999999}");
        assertThat(tooLate.status()).isEqualTo(400);

        AdminApiClient.Response cancelled = bridge.api().delete(path);
        assertThat(cancelled.status()).isEqualTo(200);
        assertThat(cancelled.json().get("cancelled").asLong()).isEqualTo(6);
        assertThat(cancelled.json().get("inFlight").asLong()).isZero();
        assertThat(state("api-4")).isEqualTo("cancelled");
        assertThat(bridge.api().delete(path).json().get("cancelled").asLong()).as("repeating it is harmless").isZero();
        String metrics = bridge.api().get("/observe/metrics").text();
        assertThat(metrics).as("dry runs and the refused reschedule are not counted")
                .contains("bridge_group_operations_total{operation=\"cancel-group\",via=\"http\"} 2.0")
                .contains("bridge_group_operations_total{operation=\"reschedule-group\",via=\"http\"} 1.0")
                .contains("bridge_group_messages_total{operation=\"cancel-group\",outcome=\"changed\",via=\"http\"} 6.0")
                .contains("bridge_group_messages_total{operation=\"reschedule-group\",outcome=\"changed\",via=\"http\"} 6.0")
                .contains("bridge_group_messages_total{operation=\"cancel-group\",outcome=\"in-flight\",via=\"http\"} 0.0");

        assertThat(bridge.api().get("/api/groups/" + "g".repeat(257)).status()).isEqualTo(400);
    }

    @Test
    void badGroupsAreDeadLetteredAsInvalidGroup() throws Exception {
        bridge.kafka().sendAndWait(INBOUND, 0, null, bytes("bad group 1"), grouped("bad-1", "g".repeat(257), "1000"));
        bridge.kafka().sendAndWait(INBOUND, 0, null, bytes("bad group 2"), grouped("bad-2", "", "1000"));
        bridge.kafka().sendAndWait(INBOUND, 0, null, bytes("bad group 3"), headers("x-control", "cancel-group"));

        awaitCondition(() -> reasons().size() >= 3, "three dead letters");

        assertThat(reasons()).containsEntry("bad group 1", "invalid-group").containsEntry("bad group 2", "invalid-group")
                .containsEntry("bad group 3", "invalid-control");
    }

    // --- helpers ---------------------------------------------------------------------------------------------

    private static Map<String, String> grouped(String id, String group, String delayMs) {
        return headers("x-delay", delayMs, "x-target", "kafka:" + TARGET, "x-message-id", id, "x-group", group);
    }

    private static long count(String group, String field) {
        JsonNode json = bridge.api().get("/api/groups/" + java.net.URLEncoder.encode(group, StandardCharsets.UTF_8).replace("+", "%20")).json();
        return json == null || json.get(field) == null ? -1 : json.get(field).asLong();
    }

    private static Map<String, String> reasons() {
        Map<String, String> reasons = new LinkedHashMap<>();
        for (Received dead : bridge.collector().received().stream().filter(r -> r.record().topic().equals(DLQ)).toList()) {
            reasons.put(new String(dead.record().value(), StandardCharsets.UTF_8), dead.header("x-dead-letter-reason"));
        }
        return reasons;
    }

    private static Received awaitArrival(String id) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 30_000;
        while (System.currentTimeMillis() < deadline) {
            List<Received> arrivals = bridge.collector().received().stream()
                    .filter(r -> r.record().topic().equals(TARGET) && id.equals(r.header("x-message-id"))).toList();
            if (!arrivals.isEmpty()) {
                return arrivals.get(0);
            }
            Thread.sleep(50);
        }
        throw new AssertionError(id + " did not arrive within 30 s");
    }

    private static String state(String id) {
        return bridge.state(id);
    }

    private static void awaitCondition(BooleanSupplier condition, String what) throws InterruptedException {
        KafkaBridgeFixture.awaitCondition(condition, what, Duration.ofSeconds(30), Duration.ofMillis(100));
    }
}
