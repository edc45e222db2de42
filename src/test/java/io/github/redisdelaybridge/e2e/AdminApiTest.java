package io.github.redisdelaybridge.e2e;

import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.redisdelaybridge.message.DeadLetter;
import io.github.redisdelaybridge.message.DeadLetterReason;
import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.MessageHeader;
import io.github.redisdelaybridge.message.codec.DeadLetterCodec;
import io.github.redisdelaybridge.message.codec.EnvelopeCodec;
import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.testkit.AdminApiClient.Response;
import io.github.redisdelaybridge.testkit.AdminApiClient;
import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient.Received;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.LocalRedis;
import io.github.redisdelaybridge.testkit.TargetCollector;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every admin API endpoint against a running bridge (real Redis, real Kafka, the real HTTP server), with
 * a bearer token configured: success paths, 400/404/409 paths, and the token check.
 */
class AdminApiTest {

    private static final String NAME = "admin-api";
    private static final String PREFIX = "test-" + NAME;
    private static final String INBOUND = NAME + ".inbound";
    private static final String TARGET = NAME + ".target";
    private static final String OTHER_TARGET = NAME + ".other";
    private static final String TOKEN = "s3cret-token";

    private static KafkaTestClient kafka;
    private static BridgeInstance bridge;
    private static AdminApiClient api;
    private static TargetCollector delivered;

    @BeforeAll
    static void startBridge() {
        LocalRedis.deleteKeys(PREFIX);
        kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
        kafka.createTopics(1, INBOUND, TARGET, OTHER_TARGET, NAME + ".dlq");
        Map<String, String> settings = BridgeInstance.settings(NAME, LocalRedis.URI);
        settings.put("bridge.admin.token", TOKEN);
        settings.put("bridge.targets.allowed", "kafka:" + NAME + ".*");
        bridge = BridgeInstance.start(settings);
        api = new AdminApiClient("http://127.0.0.1:" + settings.get("camel.server.port"), TOKEN);
        delivered = new TargetCollector(kafka, TARGET, OTHER_TARGET);
    }

    @AfterAll
    static void stopBridge() throws Exception {
        delivered.close();
        bridge.close();
        kafka.close();
    }

    // --- the token ----------------------------------------------------------------------------------------

    @Test
    void everyApiRequestNeedsTheBearerTokenButHealthDoesNot() {
        AdminApiClient noToken = api.withToken(null);
        AdminApiClient wrongToken = api.withToken("s3cret-tokeN");

        for (AdminApiClient client : List.of(noToken, wrongToken)) {
            for (String[] request : new String[][] {{"GET", "/api/stats"}, {"GET", "/api/messages/x"}, {"DELETE", "/api/messages/x"},
                    {"PUT", "/api/messages/x/due"}, {"POST", "/api/dead-letters/x/replay"}, {"DELETE", "/api/dead-letters/x"}}) {
                Response response = client.send(request[0], request[1], request[0].equals("PUT") ? "{\"delayMs\": 1}" : null);
                assertThat(response.status()).as("%s %s", request[0], request[1]).isEqualTo(401);
                assertThat(response.error()).containsIgnoringCase("bearer");
                assertThat(response.raw().headers().firstValue("WWW-Authenticate")).hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
            }
        }
        assertThat(api.get("/api/stats").status()).isEqualTo(200);
        assertThat(api.withToken(TOKEN + " ").get("/api/stats").status()).as("surrounding blanks are ignored").isEqualTo(200);
        assertThat(noToken.get("/observe/health").status()).isEqualTo(200);
    }

    @Test
    void theAuthorizationHeaderIsNotEchoedBack() {
        Response response = api.get("/api/stats");

        assertThat(response.raw().headers().firstValue("Authorization")).isEmpty();
        assertThat(response.raw().headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("application/json"));
    }

    // --- GET /api/messages/{id} -----------------------------------------------------------------------------

    @Test
    void getShowsAPendingMessageWithoutItsBodyUnlessAsked() {
        kafka.sendAndWait(INBOUND, bytes("order-7"), bytes("{\"order\": 7}"), headers("x-delay", "600000", "x-target", "kafka:" + TARGET,
                "x-message-id", "get-1", "trace", "t-1"));
        awaitStatus(() -> api.get("/api/messages/get-1"), 200);

        JsonNode message = api.get("/api/messages/get-1").json();
        JsonNode withBody = api.get("/api/messages/get-1?body=true").json();

        assertThat(message.get("id").asText()).isEqualTo("get-1");
        assertThat(message.get("state").asText()).isEqualTo("pending");
        assertThat(message.get("dueAt").asLong()).isGreaterThan(System.currentTimeMillis() + 500_000);
        assertThat(message.get("attempts").asInt()).isZero();
        assertThat(message.get("target").asText()).isEqualTo("kafka:" + TARGET);
        assertThat(message.get("origin").asText()).startsWith("kafka:" + INBOUND + "/0@");
        assertThat(message.get("size").asLong()).isGreaterThan(12);
        assertThat(message.get("key").asText()).isEqualTo("order-7");
        assertThat(message.get("headers").toString()).isEqualTo("[{\"name\":\"trace\",\"value\":\"t-1\"}]");
        assertThat(message.has("body")).isFalse();
        assertThat(withBody.get("body").asText()).isEqualTo("{\"order\": 7}");
    }

    @Test
    void getShowsBinaryContentAsBase64() {
        List<org.apache.kafka.common.header.Header> headers = new ArrayList<>();
        headers.add(new org.apache.kafka.common.header.internals.RecordHeader("x-delay", bytes("600000")));
        headers.add(new org.apache.kafka.common.header.internals.RecordHeader("x-target", bytes("kafka:" + TARGET)));
        headers.add(new org.apache.kafka.common.header.internals.RecordHeader("x-message-id", bytes("get-binary")));
        headers.add(new org.apache.kafka.common.header.internals.RecordHeader("bin", new byte[] {(byte) 0xFF, 0}));
        headers.add(new org.apache.kafka.common.header.internals.RecordHeader("none", null));
        kafka.send(INBOUND, new byte[] {(byte) 0xC3, 0x28}, new byte[] {(byte) 0x80}, headers);
        kafka.flush();
        awaitStatus(() -> api.get("/api/messages/get-binary"), 200);

        JsonNode message = api.get("/api/messages/get-binary?body=true").json();

        assertThat(message.get("keyBase64").asText()).isEqualTo("wyg=");
        assertThat(message.get("bodyBase64").asText()).isEqualTo("gA==");
        assertThat(message.get("headers").toString()).isEqualTo("[{\"name\":\"bin\",\"valueBase64\":\"/wA=\"},{\"name\":\"none\"}]");
    }

    @Test
    void getOfAnUnknownIdIs404AndBadParametersAre400() {
        Response unknown = api.get("/api/messages/never-seen");
        Response badFlag = api.get("/api/messages/never-seen?body=maybe");
        Response tooLong = api.get("/api/messages/" + "x".repeat(513));

        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.error()).contains("never-seen");
        assertThat(badFlag.status()).isEqualTo(400);
        assertThat(badFlag.error()).contains("body must be true or false");
        assertThat(tooLong.status()).isEqualTo(400);
        assertThat(tooLong.error()).contains("512 bytes");
    }

    @Test
    void idsWithReservedCharactersWorkWhenPercentEncoded() {
        String id = "order 42/timeout?ü";
        kafka.sendAndWait(INBOUND, null, bytes("x"), headers("x-delay", "600000", "x-target", "kafka:" + TARGET, "x-message-id", id));
        String path = "/api/messages/" + AdminApiClient.encode(id);
        awaitStatus(() -> api.get(path), 200);

        assertThat(api.get(path).json().get("id").asText()).isEqualTo(id);
        assertThat(api.delete(path).status()).isEqualTo(204);
        assertThat(api.get(path).json().get("state").asText()).isEqualTo("cancelled");
    }

    // --- DELETE /api/messages/{id} ------------------------------------------------------------------------

    @Test
    void deleteCancelsAPendingMessage() throws Exception {
        kafka.sendAndWait(INBOUND, null, bytes("never"), headers("x-delay", "2000", "x-target", "kafka:" + TARGET, "x-message-id", "del-1"));
        awaitStatus(() -> api.get("/api/messages/del-1"), 200);

        assertThat(api.delete("/api/messages/del-1").status()).isEqualTo(204);
        assertThat(api.delete("/api/messages/del-1").status()).as("again: already cancelled").isEqualTo(204);

        JsonNode cancelled = api.get("/api/messages/del-1").json();
        assertThat(cancelled.get("state").asText()).isEqualTo("cancelled");
        assertThat(cancelled.get("cancelledAt").asLong()).isPositive();
        Thread.sleep(4_000);
        assertThat(bodiesDelivered()).doesNotContain("never");
    }

    @Test
    void deleteOfAnUnknownIdIs404AndRecordsNothing() {
        Response response = api.delete("/api/messages/del-unknown");

        assertThat(response.status()).isEqualTo(404);
        assertThat(response.error()).contains("del-unknown");
        assertThat(api.get("/api/messages/del-unknown").status()).isEqualTo(404);
    }

    @Test
    void anInFlightMessageCannotBeCancelledOrRescheduled() throws Exception {
        injectInFlight("in-flight-1");

        Response cancel = api.delete("/api/messages/in-flight-1");
        Response reschedule = api.put("/api/messages/in-flight-1/due", "{\"delayMs\": 5000}");

        assertThat(cancel.status()).isEqualTo(409);
        assertThat(cancel.error()).contains("being delivered");
        assertThat(reschedule.status()).isEqualTo(409);
        JsonNode message = api.get("/api/messages/in-flight-1").json();
        assertThat(message.get("state").asText()).isEqualTo("in-flight");
        assertThat(message.get("leaseUntil").asLong()).isGreaterThan(System.currentTimeMillis());
        JsonNode counters = api.get("/api/stats").json().get("thisInstance");
        assertThat(counters.get("cancels").get("http").get("in-flight").asLong()).isPositive();
        assertThat(counters.get("reschedules").get("http").get("in-flight").asLong()).isPositive();
        assertThat(api.get("/observe/metrics").text()).contains("bridge_cancels_total{outcome=\"in-flight\",via=\"http\"}");
    }

    @Test
    void aDeliveredMessageCannotBeCancelled() {
        kafka.sendAndWait(INBOUND, null, bytes("quick"), headers("x-delay", "0", "x-target", "kafka:" + TARGET, "x-message-id", "del-delivered"));
        awaitState("del-delivered", "delivered");

        Response response = api.delete("/api/messages/del-delivered");

        assertThat(response.status()).isEqualTo(409);
        assertThat(response.error()).contains("delivered already");
    }

    // --- PUT /api/messages/{id}/due -------------------------------------------------------------------------

    @Test
    void putMovesTheDueTime() {
        kafka.sendAndWait(INBOUND, null, bytes("moved"), headers("x-delay", "600000", "x-target", "kafka:" + TARGET, "x-message-id", "put-1"));
        awaitStatus(() -> api.get("/api/messages/put-1"), 200);

        Response asDuration = api.put("/api/messages/put-1/due", "{\"delayMs\": \"PT20M\"}");
        assertThat(asDuration.status()).as(asDuration.text()).isEqualTo(200);
        assertThat(asDuration.json().get("dueAt").asLong()).isBetween(System.currentTimeMillis() + 1_190_000, System.currentTimeMillis() + 1_210_000);
        Response later = api.put("/api/messages/put-1/due", "{\"delayMs\": 900000}");
        Response at = api.put("/api/messages/put-1/due", "{\"deliverAt\": \"2100-01-01T00:00:00Z\"}");

        assertThat(later.status()).isEqualTo(200);
        assertThat(later.json().get("dueAt").asLong()).isGreaterThan(System.currentTimeMillis() + 800_000);
        assertThat(at.status()).as(at.text()).isEqualTo(400);
        assertThat(at.error()).contains("maximum delay");
        Response epoch = api.put("/api/messages/put-1/due", "{\"deliverAt\": " + (System.currentTimeMillis() + 700_000) + "}");
        assertThat(epoch.status()).isEqualTo(200);
        assertThat(api.get("/api/messages/put-1").json().get("dueAt").asLong()).isEqualTo(epoch.json().get("dueAt").asLong());
    }

    @Test
    void aWriteBodyMustBeSentAsJsonAndAnythingElseChangesNothing() {
        kafka.sendAndWait(INBOUND, null, bytes("x"), headers("x-delay", "600000", "x-target", "kafka:" + TARGET, "x-message-id", "put-curl"));
        awaitStatus(() -> api.get("/api/messages/put-curl"), 200);
        long dueAt = api.get("/api/messages/put-curl").json().get("dueAt").asLong();

        Response asCurlSendsIt = api.send("PUT", "/api/messages/put-curl/due", "{\"delayMs\": 700000}", "application/x-www-form-urlencoded");
        Response asText = api.send("PUT", "/api/messages/put-curl/due", "{\"delayMs\": 800000}", "text/plain");
        assertThat(asCurlSendsIt.status()).isEqualTo(415);
        assertThat(asCurlSendsIt.error()).contains("Content-Type: application/json");
        assertThat(asText.status()).as(asText.text()).isEqualTo(415);
        assertThat(api.get("/api/messages/put-curl").json().get("dueAt").asLong()).as("unchanged").isEqualTo(dueAt);

        Response withCharset = api.send("PUT", "/api/messages/put-curl/due", "{\"delayMs\": 800000}", "application/json; charset=utf-8");
        assertThat(withCharset.status()).as(withCharset.text()).isEqualTo(200);
        assertThat(api.get("/api/messages/put-curl").json().get("dueAt").asLong()).isGreaterThan(System.currentTimeMillis() + 750_000);
    }

    @Test
    void putSaysWhatIsWrongWithTheBody() {
        kafka.sendAndWait(INBOUND, null, bytes("x"), headers("x-delay", "600000", "x-target", "kafka:" + TARGET, "x-message-id", "put-bad"));
        awaitStatus(() -> api.get("/api/messages/put-bad"), 200);
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("", "delayMs");
        expected.put("not json", "not valid JSON");
        expected.put("[1]", "JSON object");
        expected.put("{\"delay\": 5}", "unknown field 'delay'");
        expected.put("{\"delayMs\": 5, \"deliverAt\": 5}", "not both");
        expected.put("{\"delayMs\": \"soon\"}", "delayMs must be a whole number of milliseconds");
        expected.put("{\"delayMs\": 1.5}", "delayMs must be a whole number of milliseconds (an integer");
        expected.put("{\"delayMs\": -5}", "delayMs must not be negative");
        expected.put("{\"delayMs\": \"-PT5S\"}", "delayMs must not be negative");
        expected.put("{\"delayMs\": 99999999999999}", "exceeds the maximum delay");
        expected.put("{\"deliverAt\": \"tomorrow\"}", "deliverAt must be epoch milliseconds or an ISO-8601 instant");
        expected.put("{\"deliverAt\": true}", "deliverAt must be");

        expected.forEach((body, error) -> {
            Response response = api.put("/api/messages/put-bad/due", body);
            assertThat(response.status()).as(body).isEqualTo(400);
            assertThat(response.error()).as(body).contains(error);
        });
        assertThat(api.put("/api/messages/put-unknown/due", "{\"delayMs\": 5}").status()).isEqualTo(404);
    }

    // --- GET /api/messages ------------------------------------------------------------------------------------

    @Test
    void listPagesThroughPendingMessagesInDueOrderWithFilters() {
        String listA = "kafka:" + NAME + ".list-a";
        String listB = "kafka:" + NAME + ".list-b";
        long base = (System.currentTimeMillis() + 300L * 86_400_000) / 1_000 * 1_000;
        for (int i = 4; i >= 0; i--) {
            kafka.send(INBOUND, null, bytes("l" + i), headers("x-deliver-at", Long.toString(base + i * 1_000L),
                    "x-target", i % 2 == 0 ? listA : listB, "x-message-id", "list-" + i));
        }
        kafka.flush();
        awaitState("list-0", "pending");

        List<String> ids = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            JsonNode page = api.get("/api/messages?limit=1&target=" + AdminApiClient.encode(listA) + (cursor == null ? "" : "&cursor=" + cursor)).json();
            assertThat(page.get("messages").size()).isLessThanOrEqualTo(1);
            page.get("messages").forEach(m -> ids.add(m.get("id").asText()));
            cursor = page.get("nextCursor").isNull() ? null : page.get("nextCursor").asText();
            pages++;
        } while (cursor != null && pages < 10);
        JsonNode dueBefore = api.get("/api/messages?target=" + AdminApiClient.encode(listB) + "&dueBefore="
                + AdminApiClient.encode(java.time.Instant.ofEpochMilli(base + 3_000).toString())).json();

        assertThat(ids).containsExactly("list-0", "list-2", "list-4");
        assertThat(dueBefore.get("messages").findValuesAsText("id")).containsExactly("list-1");
        JsonNode first = dueBefore.get("messages").get(0);
        assertThat(first.get("dueAt").asLong()).isEqualTo(base + 1_000);
        assertThat(first.get("target").asText()).isEqualTo(listB);
        assertThat(first.get("attempts").asInt()).isZero();
        assertThat(first.get("size").asLong()).isPositive();
        assertThat(dueBefore.get("nextCursor").isNull()).isTrue();
        JsonNode all = api.get("/api/messages?limit=1000").json();
        assertThat(all.get("messages").findValuesAsText("id")).contains("list-0", "list-1", "list-2", "list-3", "list-4");
        assertThat(all.get("messages").findValues("dueAt").stream().map(JsonNode::asLong).toList()).isSorted();
    }

    @Test
    void listSaysWhatIsWrongWithItsParameters() {
        assertThat(api.get("/api/messages?limit=0").error()).contains("limit must be a whole number from 1 to 1000");
        assertThat(api.get("/api/messages?limit=1001").status()).isEqualTo(400);
        assertThat(api.get("/api/messages?limit=ten").status()).isEqualTo(400);
        assertThat(api.get("/api/messages?cursor=garbage!").error()).contains("cursor");
        assertThat(api.get("/api/messages?dueBefore=soon").error()).contains("dueBefore");
        assertThat(api.get("/api/messages?limit=1&limit=2").error()).contains("given 2 times");
    }

    // --- dead letters -------------------------------------------------------------------------------------------

    @Test
    void deadLettersCanBeListedReadReplayedAndDeleted() {
        kafka.sendAndWait(INBOUND, bytes("k"), bytes("fix me"), headers("x-delay", "soon", "x-target", "kafka:" + TARGET,
                "x-message-id", "dead-1", "trace", "t-9"));
        kafka.sendAndWait(INBOUND, null, bytes("no target"), headers("x-delay", "10", "x-message-id", "dead-2"));
        awaitStatus(() -> api.get("/api/dead-letters/dead-2"), 200);

        JsonNode invalidDelay = api.get("/api/dead-letters?reason=invalid-delay").json().get("deadLetters");
        JsonNode deadLetter = api.get("/api/dead-letters/dead-1?body=true").json();
        assertThat(invalidDelay.findValuesAsText("id")).contains("dead-1").doesNotContain("dead-2");
        assertThat(deadLetter.get("state").asText()).isEqualTo("dead");
        assertThat(deadLetter.get("reason").asText()).isEqualTo("invalid-delay");
        assertThat(deadLetter.get("detail").asText()).contains("soon");
        assertThat(deadLetter.get("body").asText()).isEqualTo("fix me");
        assertThat(api.get("/api/messages/dead-1").json().get("state").asText()).isEqualTo("dead");

        Response noTarget = api.post("/api/dead-letters/dead-2/replay", null);
        Response forbidden = api.post("/api/dead-letters/dead-2/replay", "{\"target\": \"kafka:elsewhere\"}");
        Response badBody = api.post("/api/dead-letters/dead-2/replay", "{\"target\": 5}");
        assertThat(noTarget.status()).isEqualTo(400);
        assertThat(noTarget.error()).contains("has no target");
        assertThat(forbidden.status()).isEqualTo(400);
        assertThat(forbidden.error()).contains("forbidden-target");
        assertThat(badBody.status()).isEqualTo(400);

        Response replayed = api.post("/api/dead-letters/dead-1/replay", "{\"delayMs\": \"PT0.5S\"}");
        assertThat(replayed.status()).as(replayed.text()).isEqualTo(200);
        assertThat(replayed.json().get("target").asText()).isEqualTo("kafka:" + TARGET);
        Received arrived = awaitDelivery("dead-1");
        assertThat(arrived.record().value()).isEqualTo(bytes("fix me"));
        assertThat(arrived.record().key()).isEqualTo(bytes("k"));
        assertThat(arrived.header("trace")).isEqualTo("t-9");
        assertThat(arrived.header("x-delay")).isNull();
        assertThat(arrived.header("x-dead-letter-reason")).isNull();
        assertThat(api.get("/api/dead-letters/dead-1").status()).isEqualTo(404);

        assertThat(api.delete("/api/dead-letters/dead-2").status()).isEqualTo(204);
        assertThat(api.delete("/api/dead-letters/dead-2").status()).isEqualTo(404);
        assertThat(api.get("/api/dead-letters/dead-2").status()).isEqualTo(404);
    }

    @Test
    void replayOfAnUnknownDeadLetterIs404() {
        Response response = api.post("/api/dead-letters/no-such-dead-letter/replay", "{}");

        assertThat(response.status()).isEqualTo(404);
        assertThat(response.error()).contains("no-such-dead-letter");
    }

    @Test
    void replayToAnotherTargetAndOfAnIdInUse() {
        kafka.sendAndWait(INBOUND, null, bytes("redirect me"), headers("x-delay", "later", "x-target", "kafka:" + TARGET,
                "x-message-id", "dead-3"));
        awaitStatus(() -> api.get("/api/dead-letters/dead-3"), 200);

        assertThat(api.post("/api/dead-letters/dead-3/replay", "{\"target\": \"kafka:" + OTHER_TARGET + "\"}").status()).isEqualTo(200);

        assertThat(awaitDelivery("dead-3").record().topic()).isEqualTo(OTHER_TARGET);
    }

    @Test
    void aCorruptRecordCannotBeReplayed() {
        DeadLetter corrupt = new DeadLetter("corrupt-1", DeadLetterReason.CORRUPT_ENVELOPE, "stored record cannot be read", "redis", "", 0,
                null, List.of(), Map.of(), new byte[] {(byte) 0xFF, 1});
        RedisClient client = RedisClient.create(LocalRedis.URI);
        try (StatefulRedisConnection<byte[], byte[]> redis = client.connect(ByteArrayCodec.INSTANCE)) {
            Keys keys = new Keys(PREFIX, 1);
            redis.sync().hset(bytes(keys.deadLetters(0)), bytes("corrupt-1"), DeadLetterCodec.encode(corrupt));
            redis.sync().zadd(bytes(keys.deadLetterIndex(0)), System.currentTimeMillis(), bytes("corrupt-1"));
        } finally {
            client.shutdown();
        }

        Response replay = api.post("/api/dead-letters/corrupt-1/replay", "{\"target\": \"kafka:" + TARGET + "\"}");

        assertThat(replay.status()).isEqualTo(409);
        assertThat(replay.error()).contains("corrupt-envelope");
        assertThat(api.get("/api/dead-letters/corrupt-1?body=true").json().get("bodyBase64").asText()).isEqualTo("/wE=");
    }

    @Test
    void aDeadLetteredControlMessageCannotBeReplayed() {
        kafka.sendAndWait(INBOUND, null, bytes("ctl"), headers("x-control", "pause", "x-message-id", "whatever"));
        Response list = awaitCondition(() -> api.get("/api/dead-letters?reason=invalid-control"), r -> r.json().get("deadLetters").size() > 0);
        String id = list.json().get("deadLetters").get(0).get("id").asText();

        Response replay = api.post("/api/dead-letters/" + AdminApiClient.encode(id) + "/replay", "{\"target\": \"kafka:" + TARGET + "\"}");

        assertThat(id).startsWith(INBOUND + "@").contains("-0-");
        assertThat(replay.status()).isEqualTo(409);
        assertThat(replay.error()).contains("control message");
    }

    @Test
    void bulkReplayByReason() {
        kafka.send(INBOUND, null, bytes("b1"), headers("x-deliver-at", "yesterday", "x-target", "kafka:" + TARGET, "x-message-id", "bulk-1"));
        kafka.send(INBOUND, null, bytes("b2"), headers("x-delay", "-1", "x-message-id", "bulk-2"));
        kafka.flush();
        awaitStatus(() -> api.get("/api/dead-letters/bulk-2"), 200);

        assertThat(api.post("/api/dead-letters/replay", "{}").error()).contains("needs the reason");
        assertThat(api.post("/api/dead-letters/replay", "{\"reason\": \"bogus\"}").error()).contains("not a dead-letter reason");
        assertThat(api.post("/api/dead-letters/replay", "{\"reason\": \"invalid-delay\", \"limit\": 0}").status()).isEqualTo(400);
        Response bulk = api.post("/api/dead-letters/replay", "{\"reason\": \"invalid-delay\", \"target\": \"kafka:" + TARGET + "\"}");

        assertThat(bulk.status()).as(bulk.text()).isEqualTo(200);
        assertThat(bulk.json().get("replayed").asInt()).isGreaterThanOrEqualTo(2);
        assertThat(bulk.json().get("failed")).isEmpty();
        assertThat(bulk.json().get("more").asBoolean()).isFalse();
        assertThat(awaitDelivery("bulk-1").record().value()).isEqualTo(bytes("b1"));
        assertThat(awaitDelivery("bulk-2").record().value()).isEqualTo(bytes("b2"));
        assertThat(api.get("/api/dead-letters?reason=invalid-delay").json().get("deadLetters")).isEmpty();
    }

    @Test
    void deadLetterListSaysWhatIsWrongWithItsParameters() {
        assertThat(api.get("/api/dead-letters?reason=nope").error()).contains("not a dead-letter reason").contains("publish-failed");
        assertThat(api.get("/api/dead-letters?limit=-1").status()).isEqualTo(400);
        assertThat(api.get("/api/dead-letters?cursor=%25%25").status()).isEqualTo(400);
        assertThat(api.get("/api/dead-letters/unknown-dead").status()).isEqualTo(404);
    }

    // --- GET /api/stats --------------------------------------------------------------------------------------

    @Test
    void statsCountStatesAndReportTheNextDueTime() {
        kafka.sendAndWait(INBOUND, null, bytes("s"), headers("x-delay", "600000", "x-target", "kafka:" + TARGET, "x-message-id", "stats-1"));
        awaitStatus(() -> api.get("/api/messages/stats-1"), 200);

        JsonNode stats = api.get("/api/stats").json();

        assertThat(stats.get("counts").get("pending").asLong()).isPositive();
        for (String state : List.of("inFlight", "delivered", "cancelled", "dead")) {
            assertThat(stats.get("counts").get(state).isIntegralNumber()).as(state).isTrue();
        }
        assertThat(stats.get("nextDueAt").asLong()).isPositive();
        assertThat(stats.get("oldestOverdueMs").asLong()).isGreaterThanOrEqualTo(0);
        assertThat(stats.get("redisTime").asLong()).isCloseTo(System.currentTimeMillis(), org.assertj.core.data.Offset.offset(60_000L));
        assertThat(stats.get("thisInstance").has("cancelledArrivals")).isTrue();
    }

    // --- helpers ---------------------------------------------------------------------------------------------

    /** Makes a message look claimed by another instance, with a lease far in the future: deterministic, no race with the dispatcher. */
    private static void injectInFlight(String id) {
        Keys keys = new Keys(PREFIX, 1);
        RedisClient client = RedisClient.create(LocalRedis.URI);
        try (StatefulRedisConnection<byte[], byte[]> redis = client.connect(ByteArrayCodec.INSTANCE)) {
            Envelope envelope = new Envelope(id, "kafka:" + TARGET, "test", null, List.of(MessageHeader.text("h", "v")), Map.of(), bytes("b"));
            redis.sync().zadd(bytes(keys.inFlight(0)), System.currentTimeMillis() + 600_000, bytes(id));
            redis.sync().hset(bytes(keys.payloads(0)), bytes(id), EnvelopeCodec.encode(envelope));
        } finally {
            client.shutdown();
        }
    }

    private static Response awaitStatus(Supplier<Response> request, int status) {
        return awaitCondition(request, r -> r.status() == status);
    }

    private static void awaitState(String id, String state) {
        awaitCondition(() -> api.get("/api/messages/" + id), r -> r.status() == 200 && r.json().get("state").asText().equals(state));
    }

    private static Response awaitCondition(Supplier<Response> request, java.util.function.Predicate<Response> condition) {
        long deadline = System.currentTimeMillis() + 20_000;
        Response response = request.get();
        while (!condition.test(response) && System.currentTimeMillis() < deadline) {
            sleep(100);
            response = request.get();
        }
        assertThat(condition.test(response)).as("condition not reached; last response %d %s", response.status(), response.text()).isTrue();
        return response;
    }

    private static Received awaitDelivery(String id) {
        long deadline = System.currentTimeMillis() + 20_000;
        while (System.currentTimeMillis() < deadline) {
            for (Received r : delivered.received()) {
                if (id.equals(r.header("x-message-id"))) {
                    return r;
                }
            }
            sleep(100);
        }
        throw new AssertionError(id + " was not delivered");
    }

    private static List<String> bodiesDelivered() {
        return delivered.received().stream().map(r -> r.record().value() == null ? null : new String(r.record().value(), StandardCharsets.UTF_8)).toList();
    }

    private static Map<String, String> headers(String... pairs) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            headers.put(pairs[i], pairs[i + 1]);
        }
        return headers;
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
