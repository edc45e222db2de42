package io.github.redisdelaybridge.testkit;

import io.github.redisdelaybridge.BridgeMain;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.camel.CamelContext;
import org.apache.camel.main.Main;

/**
 * One bridge instance (a Camel Main with the real routes and beans) inside the test JVM. Settings
 * start from config/application.properties; the test overrides what it needs.
 */
public final class BridgeInstance implements AutoCloseable {

    private final Main main;
    private final Map<String, String> settings;

    private BridgeInstance(Map<String, String> overrides) {
        this.settings = Map.copyOf(overrides);
        this.main = BridgeMain.newMain();
        overrides.forEach(main::addOverrideProperty);
        try {
            main.start();
        } catch (Exception e) {
            throw new IllegalStateException("bridge did not start", e);
        }
    }

    /** Settings for one test: its own key prefix and topics, the embedded Kafka, the local Redis. */
    public static Map<String, String> settings(String testName, String redisUri) {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("bridge.kafka.bootstrap-servers", EmbeddedKafka.bootstrapServers());
        s.put("bridge.redis.uri", redisUri);
        s.put("bridge.redis.key-prefix", "test-" + testName);
        s.put("bridge.kafka.inbound-topics", testName + ".inbound");
        s.put("bridge.kafka.group-id", testName + "-bridge");
        s.put("bridge.dead-letter.kafka-topic", testName + ".dlq");
        String httpPort = Integer.toString(FreePorts.next());
        s.put("camel.server.port", httpPort);
        s.put("camel.management.port", httpPort);
        return s;
    }

    /**
     * Adds RabbitMQ: the local broker, inbound queue {@code <testName>.inbound}, dead letters of
     * RabbitMQ-origin messages to queue {@code <testName>.dlq}. The bridge declares both queues.
     */
    public static Map<String, String> withRabbitMq(Map<String, String> settings, String testName) {
        settings.put("bridge.rabbitmq.enabled", "true");
        settings.put("bridge.rabbitmq.host", RabbitMqTestClient.HOST);
        settings.put("bridge.rabbitmq.port", Integer.toString(RabbitMqTestClient.PORT));
        settings.put("bridge.rabbitmq.inbound-queues", testName + ".inbound");
        settings.put("bridge.rabbitmq.dead-letter-channel", "rabbitmq:/" + testName + ".dlq");
        return settings;
    }

    public static BridgeInstance start(Map<String, String> settings) {
        return new BridgeInstance(settings);
    }

    /** GETs a path of this instance's HTTP server; returns "status body". */
    public String httpGet(String path) {
        try {
            java.net.http.HttpResponse<String> response = java.net.http.HttpClient.newHttpClient().send(
                    java.net.http.HttpRequest.newBuilder(java.net.URI.create(
                            "http://127.0.0.1:" + settings.get("camel.server.port") + path)).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            return response.statusCode() + " " + response.body();
        } catch (java.io.IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    public CamelContext context() {
        return main.getCamelContext();
    }

    @Override
    public void close() {
        try {
            main.stop();
        } catch (Exception e) {
            throw new IllegalStateException("bridge did not stop cleanly", e);
        }
    }
}
