package io.github.redisdelaybridge.e2e;

import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.redisdelaybridge.testkit.AdminApiClient;
import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.LocalRedis;
import io.github.redisdelaybridge.testkit.LogCapture;
import io.github.redisdelaybridge.testkit.RawHttpRequest;
import io.github.redisdelaybridge.testkit.RawHttpRequest.Response;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The requests a web page from another site can make a browser send to the admin API, on a running bridge with real
 * Redis and Kafka, written byte for byte on a socket: a CSRF "simple request" (text/plain POST, no preflight) with a
 * foreign Origin or Sec-Fetch-Site, and a DNS-rebinding page whose requests carry the attacker's name as Host. Each
 * must be refused and change nothing; the console's own same-origin requests, and a Host listed in
 * bridge.admin.allowed-hosts, still work.
 */
@Timeout(240)
class AdminApiForeignPageTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String EVIL_ORIGIN = "http://evil.example";

    @Test
    void withoutATokenAForeignPageCanNeitherReplayNorReadAndNothingChanges() throws Exception {
        String name = "admin-foreign-open";
        LocalRedis.deleteKeys("test-" + name);
        KafkaTestClient kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
        kafka.createTopics(1, name + ".inbound", name + ".target", name + ".dlq");
        Map<String, String> settings = BridgeInstance.settings(name, LocalRedis.URI); // no token, loopback: as shipped
        settings.put("bridge.targets.allowed", "kafka:" + name + ".*");
        int port = Integer.parseInt(settings.get("camel.server.port"));
        String self = "127.0.0.1:" + port;
        String replayAll = "{\"reason\": \"invalid-delay\", \"target\": \"kafka:" + name + ".target\"}";
        try (kafka; LogCapture logs = new LogCapture(); BridgeInstance bridge = BridgeInstance.start(settings)) {
            AdminApiClient api = new AdminApiClient("http://" + self, null);
            kafka.send(name + ".inbound", null, bytes("a"), Map.of("x-delay", "-1", "x-message-id", "foreign-1"));
            kafka.send(name + ".inbound", null, bytes("b"), Map.of("x-delay", "-1", "x-message-id", "foreign-2"));
            kafka.flush();
            awaitDeadLetters(api, 2);

            Response csrf = RawHttpRequest.of("POST", "/api/dead-letters/replay", self).header("Origin", EVIL_ORIGIN)
                    .header("Content-Type", "text/plain").body(replayAll).sendTo(port);
            assertThat(csrf.status()).as(csrf.body()).isIn(403, 415);
            Response crossSite = RawHttpRequest.of("POST", "/api/dead-letters/replay", self).header("Sec-Fetch-Site", "cross-site")
                    .header("Content-Type", "application/json").body(replayAll).sendTo(port);
            assertThat(crossSite.status()).as("Sec-Fetch-Site: cross-site, no Origin: " + crossSite.body()).isEqualTo(403);
            Response nullOrigin = RawHttpRequest.of("POST", "/api/dead-letters/replay", self).header("Origin", "null")
                    .header("Content-Type", "application/json").body(replayAll).sendTo(port);
            assertThat(nullOrigin.status()).as("Origin: null (a sandboxed frame): " + nullOrigin.body()).isEqualTo(403);
            assertThat(error(nullOrigin)).contains("Origin");
            Response otherPort = RawHttpRequest.of("POST", "/api/dead-letters/replay", self).header("Origin", "http://127.0.0.1:" + (port + 1))
                    .header("Content-Type", "application/json").body(replayAll).sendTo(port);
            assertThat(otherPort.status()).as("another local web server's page: " + otherPort.body()).isEqualTo(403);
            Response plainText = RawHttpRequest.of("POST", "/api/dead-letters/replay", self).header("Content-Type", "text/plain")
                    .body(replayAll).sendTo(port);
            assertThat(plainText.status()).as("text/plain, even without Origin: " + plainText.body()).isEqualTo(415);
            assertThat(error(plainText)).contains("Content-Type: application/json");
            Response form = RawHttpRequest.of("POST", "/api/dead-letters/replay", self).header("Content-Type", "application/x-www-form-urlencoded")
                    .body("reason=invalid-delay").sendTo(port);
            assertThat(form.status()).as("an HTML form's POST: " + form.body()).isEqualTo(415);
            Response untyped = RawHttpRequest.of("POST", "/api/dead-letters/replay", self).body(replayAll).sendTo(port);
            assertThat(untyped.status()).as("a body without Content-Type: " + untyped.body()).isEqualTo(415);
            Response bodylessForeign = RawHttpRequest.of("DELETE", "/api/dead-letters/foreign-1", self).header("Origin", EVIL_ORIGIN).sendTo(port);
            assertThat(bodylessForeign.status()).as("a body-less write from a foreign page: " + bodylessForeign.body()).isEqualTo(403);

            String rebound = "evil.example:" + port;
            Response rebindRead = RawHttpRequest.of("GET", "/api/stats", rebound).sendTo(port);
            assertThat(rebindRead.status()).as(rebindRead.body()).isEqualTo(403);
            assertThat(error(rebindRead)).contains("evil.example").contains("bridge.admin.allowed-hosts").contains("BRIDGE_ADMIN_ALLOWED_HOSTS");
            Response rebindWrite = RawHttpRequest.of("DELETE", "/api/dead-letters/foreign-1", rebound).header("Origin", "http://" + rebound).sendTo(port);
            assertThat(rebindWrite.status()).as("same-origin to the rebound name: " + rebindWrite.body()).isEqualTo(403);
            Response rebindReplay = RawHttpRequest.of("POST", "/api/dead-letters/replay", rebound).header("Content-Type", "application/json")
                    .body(replayAll).sendTo(port);
            assertThat(rebindReplay.status()).as(rebindReplay.body()).isEqualTo(403);
            assertThat(RawHttpRequest.of("GET", "/console/", rebound).sendTo(port).status()).as("the console page").isEqualTo(403);
            assertThat(RawHttpRequest.of("GET", "/api/openapi.json", rebound).sendTo(port).status()).as("the API's description").isEqualTo(403);
            assertThat(RawHttpRequest.of("GET", "/api/stats", null).sendTo(port).status()).as("no Host at all").isIn(400, 403);
            assertThat(RawHttpRequest.of("GET", "/observe/health/live", rebound).sendTo(port).status()).as("probes send any Host").isEqualTo(200);
            assertThat(RawHttpRequest.of("GET", "/observe/metrics", rebound).sendTo(port).status()).as("scrapes send any Host").isEqualTo(200);

            assertThat(deadLetters(api)).as("nothing was replayed or deleted").hasSize(2);
            assertThat(logs.messagesContaining("admin request refused (403): POST /api/dead-letters/replay from 127.0.0.1:")).hasSizeGreaterThanOrEqualTo(4);
            assertThat(logs.messagesContaining("admin request refused (415): POST /api/dead-letters/replay from 127.0.0.1:")).hasSizeGreaterThanOrEqualTo(2);
            assertThat(logs.messagesContaining("admin request refused (403): GET /api/stats from 127.0.0.1:")).isNotEmpty();
            assertThat(logs.messagesContaining("admin request refused (403): GET /console/ from 127.0.0.1:")).hasSize(1);
            assertThat(logs.messagesContaining("admin write:")).as("no refused write is logged as let through").isEmpty();

            for (String loopbackName : new String[] {"localhost:" + port, "[::1]:" + port, "LOCALHOST", "127.0.0.1"}) {
                assertThat(RawHttpRequest.of("GET", "/api/stats", loopbackName).sendTo(port).status()).as(loopbackName).isEqualTo(200);
            }
            assertThat(RawHttpRequest.of("GET", "/console/", "localhost:" + port).sendTo(port).status()).isEqualTo(200);
            assertThat(RawHttpRequest.of("GET", "/api/openapi.json", "localhost:" + port).sendTo(port).status()).isEqualTo(200);
            // what the console's fetch sends: same-origin, a body-less replay of one and a JSON replay of a reason
            Response consoleOne = RawHttpRequest.of("POST", "/api/dead-letters/no-such-id/replay", "localhost:" + port)
                    .header("Origin", "http://localhost:" + port).header("Sec-Fetch-Site", "same-origin").sendTo(port);
            assertThat(consoleOne.status()).as("a body-less write passes the checks: " + consoleOne.body()).isEqualTo(404);
            Response sameOrigin = RawHttpRequest.of("POST", "/api/dead-letters/replay", self).header("Origin", "http://" + self)
                    .header("Sec-Fetch-Site", "same-origin").header("Content-Type", "application/json; charset=utf-8").body(replayAll).sendTo(port);
            assertThat(sameOrigin.status()).as(sameOrigin.body()).isEqualTo(200);
            assertThat(JSON.readTree(sameOrigin.body()).get("replayed").asInt()).isEqualTo(2);
            assertThat(deadLetters(api)).isEmpty();
            assertThat(logs.messagesContaining("admin write: POST /api/dead-letters/replay by no-token-loopback-server")).hasSize(1);
        }
    }

    @Test
    void withATokenARebindingHostIsRefusedAndAListedHostIsLetIn() throws Exception {
        String name = "admin-foreign-token";
        String token = "t0ken-" + name;
        LocalRedis.deleteKeys("test-" + name);
        Map<String, String> settings = BridgeInstance.settings(name, LocalRedis.URI);
        settings.put("camel.server.host", "0.0.0.0");
        settings.put("bridge.admin.token", token);
        settings.put("bridge.admin.allowed-hosts", "bridge.example, *.bridge-svc.ops, pinned.example:" + settings.get("camel.server.port"));
        int port = Integer.parseInt(settings.get("camel.server.port"));
        String bearer = "Bearer " + token;
        try (LogCapture logs = new LogCapture(); BridgeInstance bridge = BridgeInstance.start(settings)) {
            String rebound = "evil.example:" + port;
            Response read = RawHttpRequest.of("GET", "/api/stats", rebound).header("Authorization", bearer).sendTo(port);
            assertThat(read.status()).as(read.body()).isEqualTo(403);
            assertThat(error(read)).contains("bridge.admin.allowed-hosts");
            Response write = RawHttpRequest.of("DELETE", "/api/messages/unknown", rebound).header("Authorization", bearer).sendTo(port);
            assertThat(write.status()).as(write.body()).isEqualTo(403);
            assertThat(RawHttpRequest.of("GET", "/api/stats", "bridge.example.evil:" + port).header("Authorization", bearer).sendTo(port).status())
                    .as("a listed name as a prefix of another").isEqualTo(403);
            assertThat(RawHttpRequest.of("GET", "/api/stats", "pinned.example:" + (port + 1)).header("Authorization", bearer).sendTo(port).status())
                    .as("a listed host:port on another port").isEqualTo(403);
            Response foreignOrigin = RawHttpRequest.of("DELETE", "/api/messages/unknown", "127.0.0.1:" + port).header("Authorization", bearer)
                    .header("Origin", EVIL_ORIGIN).sendTo(port);
            assertThat(foreignOrigin.status()).as("a foreign Origin, even with the token: " + foreignOrigin.body()).isEqualTo(403);

            for (String listed : new String[] {"bridge.example:" + port, "BRIDGE.example", "bridge-0.bridge-svc.ops:" + port, "pinned.example:" + port}) {
                Response in = RawHttpRequest.of("GET", "/api/stats", listed).header("Authorization", bearer).sendTo(port);
                assertThat(in.status()).as(listed + ": " + in.body()).isEqualTo(200);
            }
            Response noToken = RawHttpRequest.of("GET", "/api/stats", "bridge.example:" + port).sendTo(port);
            assertThat(noToken.status()).as("a listed host still needs the token").isEqualTo(401);
            Response sameOrigin = RawHttpRequest.of("PUT", "/api/messages/unknown/due", "bridge.example:" + port).header("Authorization", bearer)
                    .header("Origin", "http://bridge.example:" + port).header("Content-Type", "application/json").body("{\"delayMs\": 1000}").sendTo(port);
            assertThat(sameOrigin.status()).as("passes every check, then finds no such message: " + sameOrigin.body()).isEqualTo(404);
            assertThat(logs.messagesContaining("admin request refused (403): DELETE /api/messages/unknown from 127.0.0.1:")).hasSize(2);
            assertThat(logs.messagesContaining("admin write: PUT /api/messages/unknown/due by write-token")).hasSize(1);
        }
    }

    private static JsonNode deadLetters(AdminApiClient api) {
        AdminApiClient.Response list = api.get("/api/dead-letters?reason=invalid-delay");
        assertThat(list.status()).as(list.text()).isEqualTo(200);
        return list.json().get("deadLetters");
    }

    private static void awaitDeadLetters(AdminApiClient api, int count) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 30_000;
        while (deadLetters(api).size() < count && System.currentTimeMillis() < deadline) {
            Thread.sleep(100);
        }
        assertThat(deadLetters(api)).hasSize(count);
    }

    private static String error(Response response) throws Exception {
        JsonNode error = JSON.readTree(response.body()).get("error");
        return error == null ? "" : error.asText();
    }
}
