package io.github.redisdelaybridge.e2e;

import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.redisdelaybridge.message.DeadLetterReason;
import io.github.redisdelaybridge.testkit.AdminApiClient;
import io.github.redisdelaybridge.testkit.AdminApiClient.Response;
import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.LocalRedis;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.camel.Endpoint;
import org.apache.camel.Route;
import org.apache.camel.component.platform.http.HttpEndpointModel;
import org.apache.camel.component.platform.http.PlatformHttpComponent;
import org.apache.camel.component.platform.http.PlatformHttpEndpoint;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The OpenAPI description served at {@code /api/openapi.json} against the routes a running bridge really serves under
 * {@code /api}, both ways: the served routes are read from the CamelContext (the platform-http endpoints of its routes,
 * and the HTTP server's own registry), never from a list kept here; every one must be described, and every described
 * path and method must be answered by its route on the running bridge (not a 404 of the server, not a 405).
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class OpenApiRoutesTest {

    private static final String NAME = "openapi-routes";
    private static final String PREFIX = "test-" + NAME;
    private static final String INBOUND = NAME + ".inbound";
    private static final String TARGET = NAME + ".target";
    private static final String TOKEN = "openapi-token";
    private static final String PENDING_ID = "probe-pending";
    private static final List<String> METHOD_ORDER = List.of("GET", "PUT", "POST", "DELETE");

    private static KafkaTestClient kafka;
    private static BridgeInstance bridge;
    private static AdminApiClient api;

    @BeforeAll
    static void startBridge() {
        LocalRedis.deleteKeys(PREFIX);
        kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
        kafka.createTopics(1, INBOUND, TARGET, NAME + ".dlq");
        Map<String, String> settings = BridgeInstance.settings(NAME, LocalRedis.URI);
        settings.put("bridge.admin.token", TOKEN);
        settings.put("bridge.targets.allowed", "kafka:" + NAME + ".*");
        bridge = BridgeInstance.start(settings);
        api = new AdminApiClient("http://127.0.0.1:" + settings.get("camel.server.port"), TOKEN);
    }

    @AfterAll
    static void stopBridge() {
        bridge.close();
        kafka.close();
    }

    @Test
    void everyRouteServedUnderApiIsDescribedAndNothingElse() {
        Set<String> served = servedByRoutes();
        Set<String> described = described(openApi());

        assertThat(served).as("the bridge serves admin routes").contains("GET /api/stats", "DELETE /api/messages/{id}");
        assertThat(described).as("described but not served").isSubsetOf(served);
        assertThat(served).as("served but not described").isSubsetOf(described);
    }

    @Test
    void theHttpServerRegistersNoApiPathTheDescriptionLacks() {
        Set<String> describedPaths = new TreeSet<>();
        openApi().get("paths").fieldNames().forEachRemaining(describedPaths::add);
        PlatformHttpComponent component = bridge.context().getComponent("platform-http", PlatformHttpComponent.class);

        List<String> registered = component.getHttpEndpoints().stream().map(HttpEndpointModel::getUri)
                .filter(uri -> uri.startsWith("/api")).sorted().toList();

        assertThat(registered).isNotEmpty();
        assertThat(describedPaths).containsAll(registered);
    }

    @Test
    void everyDescribedOperationIsAnsweredByItsRouteWithADocumentedStatus() {
        kafka.sendAndWait(INBOUND, bytes("k"), bytes("pending body"),
                Map.of("x-delay", "3600000", "x-target", "kafka:" + TARGET, "x-message-id", PENDING_ID));
        deadLetter("probe-dead-1");
        deadLetter("probe-dead-2");
        awaitStatus(() -> api.get("/api/messages/" + PENDING_ID), 200);
        awaitStatus(() -> api.get("/api/dead-letters/probe-dead-2"), 200);
        JsonNode paths = openApi().get("paths");

        List<String[]> operations = new ArrayList<>();
        paths.fields().forEachRemaining(path -> path.getValue().fieldNames().forEachRemaining(method -> {
            if (METHOD_ORDER.contains(method.toUpperCase())) {
                operations.add(new String[] {path.getKey(), method.toUpperCase()});
            }
        }));
        // the message and the first dead letter are read before they are changed, replayed or removed
        operations.sort(Comparator.<String[], String>comparing(o -> o[0]).thenComparing(o -> METHOD_ORDER.indexOf(o[1])));
        assertThat(operations).hasSizeGreaterThanOrEqualTo(12);

        for (String[] operation : operations) {
            String path = operation[0];
            String method = operation[1];
            JsonNode described = paths.get(path).get(method.toLowerCase());
            String id = path.startsWith("/api/dead-letters/") ? (method.equals("DELETE") ? "probe-dead-2" : "probe-dead-1") : PENDING_ID;
            JsonNode example = described.at("/requestBody/content/application~1json/example");
            Response response = api.send(method, path.replace("{id}", id).replace("{group}", "probe-group"),
                    example.isMissingNode() ? null : example.toString());

            assertThat(answeredByRoute(response)).as("%s %s answered by its route: %d %s", method, path, response.status(), response.text())
                    .isTrue();
            assertThat(described.get("responses").has(Integer.toString(response.status())))
                    .as("%s %s answered %d %s, a status its description lists", method, path, response.status(), response.text()).isTrue();
        }
    }

    @Test
    void aPathNoRouteServesIsNotTakenForAnAnswer() {
        Response response = api.get("/api/no-such-route");

        assertThat(response.status()).isEqualTo(404);
        assertThat(answeredByRoute(response)).as("the check above can fail").isFalse();
    }

    @Test
    void theDescriptionIsOpenApi3ReadableWithoutAToken() {
        Response response = api.withToken(null).get("/api/openapi.json");

        assertThat(response.status()).isEqualTo(200);
        JsonNode doc = response.json();
        assertThat(doc.get("openapi").asText()).startsWith("3.");
        assertThat(doc.at("/info/title").asText()).isNotBlank();
        assertThat(doc.at("/components/securitySchemes/bearerToken/scheme").asText()).isEqualTo("bearer");
        doc.get("paths").fields().forEachRemaining(path -> path.getValue().fields().forEachRemaining(operation -> {
            if (!operation.getKey().equals("parameters")) {
                assertThat(operation.getValue().get("responses")).as("%s %s responses", operation.getKey(), path.getKey()).isNotEmpty();
                assertThat(operation.getValue().get("operationId")).as("%s %s operationId", operation.getKey(), path.getKey()).isNotNull();
            }
        }));
        assertEveryReferenceResolves(doc, doc);
        assertThat(doc.at("/components/schemas/Reason/enum")).extracting(JsonNode::asText)
                .containsExactlyElementsOf(Arrays.stream(DeadLetterReason.values()).map(DeadLetterReason::code).toList());
    }

    /** "METHOD /path" of every route whose consumer is a platform-http endpoint under /api, from the CamelContext. */
    private static Set<String> servedByRoutes() {
        Set<String> served = new TreeSet<>();
        for (Route route : bridge.context().getRoutes()) {
            Endpoint endpoint = route.getEndpoint();
            if (endpoint instanceof PlatformHttpEndpoint http && http.getPath().startsWith("/api")) {
                String methods = http.getHttpMethodRestrict();
                assertThat(methods).as("route %s serves %s for one method at least", route.getRouteId(), http.getPath()).isNotBlank();
                for (String method : methods.split(",")) {
                    served.add(method.strip().toUpperCase() + " " + http.getPath());
                }
            }
        }
        return served;
    }

    private static Set<String> described(JsonNode doc) {
        Set<String> described = new TreeSet<>();
        doc.get("paths").fields().forEachRemaining(path -> path.getValue().fieldNames().forEachRemaining(key -> {
            if (!key.equals("parameters")) {
                described.add(key.toUpperCase() + " " + path.getKey());
            }
        }));
        return described;
    }

    /** A route's answer: a success, or the admin API's JSON error; not the server's own 404 or 405. */
    private static boolean answeredByRoute(Response response) {
        if (response.status() == 405) {
            return false;
        }
        if (response.status() >= 200 && response.status() < 300) {
            return true;
        }
        return response.json() != null && response.error() != null;
    }

    private static JsonNode openApi() {
        Response response = api.get("/api/openapi.json");
        assertThat(response.status()).isEqualTo(200);
        return response.json();
    }

    private static void assertEveryReferenceResolves(JsonNode doc, JsonNode node) {
        if (node.isObject()) {
            JsonNode ref = node.get("$ref");
            if (ref != null) {
                assertThat(ref.asText()).startsWith("#/");
                assertThat(doc.at(ref.asText().substring(1)).isMissingNode()).as("%s resolves", ref.asText()).isFalse();
            }
            for (Iterator<JsonNode> children = node.elements(); children.hasNext(); ) {
                assertEveryReferenceResolves(doc, children.next());
            }
        } else if (node.isArray()) {
            node.forEach(child -> assertEveryReferenceResolves(doc, child));
        }
    }

    /** A dead letter that replays cleanly: its x-delay is refused at ingest, its target is fine. */
    private static void deadLetter(String id) {
        kafka.sendAndWait(INBOUND, bytes("k"), bytes("dead body"), Map.of("x-delay", "soon", "x-target", "kafka:" + TARGET, "x-message-id", id));
    }

    private static void awaitStatus(Supplier<Response> request, int status) {
        long deadline = System.currentTimeMillis() + 30_000;
        while (request.get().status() != status && System.currentTimeMillis() < deadline) {
            sleep();
        }
        assertThat(request.get().status()).isEqualTo(status);
    }

    private static void sleep() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

}
