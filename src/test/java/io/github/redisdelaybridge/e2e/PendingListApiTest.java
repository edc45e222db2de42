package io.github.redisdelaybridge.e2e;

import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.redisdelaybridge.testkit.AdminApiClient;
import io.github.redisdelaybridge.testkit.AdminApiClient.Response;
import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.LocalRedis;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /api/messages} as a browsable backlog, against a running bridge (real Redis, real Kafka, the real HTTP
 * server): the due range and target glob filters, pages by cursor, the totals, and a 400 with its reason for every bad
 * parameter.
 */
class PendingListApiTest {

    private static final String NAME = "pending-list";
    private static final String PREFIX = "test-" + NAME;
    private static final String INBOUND = NAME + ".inbound";
    private static final String TOKEN = "list-token";
    /** Far enough ahead that nothing falls due while the test runs; whole seconds. */
    private static final long BASE = (System.currentTimeMillis() + 200L * 86_400_000) / 1_000 * 1_000;

    private static KafkaTestClient kafka;
    private static BridgeInstance bridge;
    private static AdminApiClient api;

    @BeforeAll
    static void startBridge() {
        LocalRedis.deleteKeys(PREFIX);
        kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
        kafka.createTopics(1, INBOUND, NAME + ".dlq");
        Map<String, String> settings = BridgeInstance.settings(NAME, LocalRedis.URI);
        settings.put("bridge.admin.token", TOKEN);
        settings.put("bridge.targets.allowed", "kafka:" + NAME + ".*");
        bridge = BridgeInstance.start(settings);
        api = new AdminApiClient("http://127.0.0.1:" + settings.get("camel.server.port"), TOKEN);
        // ten messages a second apart: even ones for orders.created.eu, odd ones for orders.expired
        for (int i = 0; i < 10; i++) {
            String target = "kafka:" + NAME + (i % 2 == 0 ? ".orders.created.eu" : ".orders.expired");
            kafka.send(INBOUND, null, bytes("body " + i), Map.of("x-deliver-at", Long.toString(BASE + i * 1_000L), "x-target", target,
                    "x-message-id", "p-" + i));
        }
        kafka.flush();
        long deadline = System.currentTimeMillis() + 30_000;
        while (api.get("/api/messages").json().at("/totals/inDueRange").asLong() < 10 && System.currentTimeMillis() < deadline) {
            sleep(100);
        }
    }

    @AfterAll
    static void stopBridge() {
        bridge.close();
        kafka.close();
    }

    @Test
    void pagesOfTheMessagesInADueRangeForATargetGlobWithTheirTotals() {
        String range = "dueAfter=" + AdminApiClient.encode(Instant.ofEpochMilli(BASE + 2_000).toString()) + "&dueBefore=" + (BASE + 8_000);
        List<String> ids = new ArrayList<>();
        List<JsonNode> pages = new ArrayList<>();
        String cursor = null;
        do {
            JsonNode page = ok("/api/messages?limit=2&" + range + "&target=" + AdminApiClient.encode("kafka:" + NAME + ".orders.*.eu")
                    + (cursor == null ? "" : "&cursor=" + cursor));
            pages.add(page);
            page.get("messages").forEach(message -> ids.add(message.get("id").asText()));
            cursor = page.get("nextCursor").isNull() ? null : page.get("nextCursor").asText();
        } while (cursor != null && pages.size() < 10);
        JsonNode everyTarget = ok("/api/messages?" + range);
        JsonNode exact = ok("/api/messages?target=" + AdminApiClient.encode("kafka:" + NAME + ".orders.expired") + "&dueAfter=" + (BASE + 9_000));

        assertThat(ids).containsExactly("p-2", "p-4", "p-6");
        assertThat(pages.get(0).get("totals")).hasToString("{\"inDueRange\":6,\"matching\":3,\"exact\":true}");
        assertThat(pages.get(0).at("/messages/0/dueAt").asLong()).isEqualTo(BASE + 2_000);
        assertThat(everyTarget.get("messages").findValuesAsText("id")).containsExactly("p-2", "p-3", "p-4", "p-5", "p-6", "p-7");
        assertThat(everyTarget.get("totals")).hasToString("{\"inDueRange\":6,\"matching\":6,\"exact\":true}");
        assertThat(exact.get("messages").findValuesAsText("id")).containsExactly("p-9");
        assertThat(exact.get("totals")).hasToString("{\"inDueRange\":1,\"matching\":1,\"exact\":true}");
    }

    @Test
    void everyBadParameterIsA400ThatSaysWhatIsWrong() {
        assertThat(error("/api/messages?dueAfter=soon")).contains("dueAfter");
        assertThat(error("/api/messages?dueBefore=2026-13-01")).contains("dueBefore");
        assertThat(error("/api/messages?dueAfter=" + (BASE + 5) + "&dueBefore=" + (BASE + 5)))
                .contains("dueAfter", "must be before dueBefore", "the range is empty");
        assertThat(error("/api/messages?due-after=" + BASE)).isEqualTo("unknown parameter 'due-after'; this listing takes cursor, dueAfter,"
                + " dueBefore, limit, target");
        assertThat(error("/api/messages?target=" + "x".repeat(1_025))).contains("target must be at most 1024 bytes");
        assertThat(error("/api/messages?limit=0")).contains("limit must be a whole number from 1 to 1000");
        assertThat(error("/api/messages?cursor=garbage!")).contains("cursor 'garbage!' is not one this API returned as nextCursor");
        assertThat(error("/api/messages?dueAfter=1&dueAfter=2")).contains("parameter 'dueAfter' is given 2 times");
    }

    private static JsonNode ok(String path) {
        Response response = api.get(path);
        assertThat(response.status()).as(path + ": " + response.text()).isEqualTo(200);
        return response.json();
    }

    private static String error(String path) {
        Response response = api.get(path);
        assertThat(response.status()).as(path + ": " + response.text()).isEqualTo(400);
        return response.error();
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
