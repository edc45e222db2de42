package io.github.redisdelaybridge.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.BridgeMain;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.FreePorts;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.LocalRedis;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end against what users deploy: the distribution {@code mvn package} unpacked in
 * target/redis-delay-bridge, started through its own bin/redis-delay-bridge as a separate process, from an
 * empty working directory (settings and routes must come from the install location), configured only by
 * environment variables, against the local Redis (a key prefix of its own) and a Kafka broker in this JVM.
 * A delayed message with binary key, body and headers arrives on its target byte for byte, not early; the
 * distribution's bin/publish works without Maven; bad configuration exits 2; SIGTERM stops it cleanly.
 */
class PackagedBridgeIT {

    private static final Path DISTRIBUTION = Path.of(System.getProperty("it.distribution", "target/redis-delay-bridge")).toAbsolutePath();
    private static final Path LOGS = Path.of("target", "failsafe-logs");
    private static final String NAME = "packaged-it";
    private static final String PREFIX = "it-" + NAME + "-" + UUID.randomUUID().toString().substring(0, 8);

    @TempDir
    static Path emptyWorkingDirectory;

    private static KafkaTestClient kafka;

    @BeforeAll
    static void kafka() {
        kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
    }

    @AfterAll
    static void cleanUp() {
        kafka.close();
        LocalRedis.deleteKeys(PREFIX);
    }

    @Test
    void versionAndHelpWorkOnTheStartScript() throws Exception {
        Run version = run("version", List.of(script("redis-delay-bridge"), "--version"), Map.of(), Duration.ofSeconds(60));
        Run help = run("help", List.of(script("redis-delay-bridge"), "--help"), Map.of(), Duration.ofSeconds(60));

        assertThat(version.exitCode()).isZero();
        // the commit the build came from (it.commit: what Maven found; none without git)
        String commit = System.getProperty("it.commit", "");
        String expectedCommit = commit.isBlank() || commit.contains("${") ? "unknown" : commit;
        assertThat(version.output().lines().findFirst().orElse("")).matches(java.util.regex.Pattern.quote("redis-delay-bridge "
                + System.getProperty("it.version", "") + " (commit " + expectedCommit) + "(-dirty)?, Apache Camel .*");
        assertThat(help.exitCode()).isZero();
        assertThat(help.output()).startsWith("Usage: redis-delay-bridge [--home DIR]").contains("BRIDGE_HOME");
    }

    @Test
    void theArchiveHoldsTheDistribution() throws Exception {
        Path archive;
        try (var files = Files.list(DISTRIBUTION.getParent())) {
            archive = files.filter(f -> f.getFileName().toString().matches("redis-delay-bridge-.*-bin\\.tar\\.gz")).findFirst()
                    .orElseThrow(() -> new AssertionError("no redis-delay-bridge-*-bin.tar.gz next to " + DISTRIBUTION));
        }
        Run listing = run("archive", List.of("tar", "-tzvf", archive.toString()), Map.of(), Duration.ofSeconds(60));
        String version = System.getProperty("it.version", "");
        String base = "redis-delay-bridge-" + version + "/";
        assertThat(listing.output()).containsPattern("-rwxr-xr-x .* " + base + "bin/redis-delay-bridge\n")
                .containsPattern("-rwxr-xr-x .* " + base + "bin/publish\n")
                .containsPattern("-rwxr-xr-x .* " + base + "bin/healthcheck\n")
                .contains(base + "sbom.cdx.json\n")
                .contains(base + "CHANGELOG.md\n")
                .contains(base + "redis-delay-bridge-" + version + ".jar\n")
                .contains(base + "config/application.properties\n")
                .contains(base + "routes/kafka-inbound.yaml\n")
                .containsPattern(base + "lib/camel-main-[0-9.]+\\.jar\n");
    }

    @Test
    void badConfigurationExits2WithOneLine() throws Exception {
        Run run = run("bad-config", List.of(script("redis-delay-bridge")), Map.of("BRIDGE_REDIS_URL", "redis://127.0.0.1:6379"),
                Duration.ofSeconds(60));

        assertThat(run.exitCode()).as(run.output()).isEqualTo(2);
        assertThat(run.output()).contains("redis-delay-bridge: configuration: unknown environment variable BRIDGE_REDIS_URL:"
                + " did you mean BRIDGE_REDIS_URI (bridge.redis.uri)?\n").doesNotContain("\tat ");
    }

    @Test
    void thePublishToolRunsFromTheDistribution() throws Exception {
        Run help = run("publish-help", List.of(script("publish"), "--help"), Map.of(), Duration.ofSeconds(30));
        assertThat(help.exitCode()).isZero();
        assertThat(help.output()).startsWith("Usage: publish");

        long started = System.nanoTime();
        Run noBroker = run("publish-no-broker", List.of(script("publish"), "--bootstrap", "127.0.0.1:" + FreePorts.next(),
                "--delay", "1000", "--target", "kafka:x", "hello"), Map.of(), Duration.ofSeconds(60));
        assertThat(noBroker.exitCode()).isEqualTo(1);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(30));
        assertThat(noBroker.output()).as("all it prints").startsWith("publish: no Kafka broker answers at 127.0.0.1:").hasLineCount(1);
    }

    @Test
    void aDelayedMessageArrivesByteForByteFromTheStartedDistribution() throws Exception {
        String inbound = NAME + ".inbound";
        String target = NAME + ".target";
        kafka.createTopics(1, inbound, target, NAME + ".dlq");
        int httpPort = FreePorts.next();
        Map<String, String> environment = new LinkedHashMap<>();
        environment.put("BRIDGE_REDIS_URI", LocalRedis.URI);
        environment.put("BRIDGE_REDIS_KEY_PREFIX", PREFIX);
        environment.put("BRIDGE_KAFKA_BOOTSTRAP_SERVERS", EmbeddedKafka.bootstrapServers());
        environment.put("BRIDGE_KAFKA_INBOUND_TOPICS", inbound);
        environment.put("BRIDGE_KAFKA_GROUP_ID", NAME + "-bridge");
        environment.put("BRIDGE_DEAD_LETTER_KAFKA_TOPIC", NAME + ".dlq");
        // -D: Camel Main ignores CAMEL_*_PORT variables. The server port alone: health and metrics follow it
        environment.put("JAVA_OPTS", "-Xmx512m -XX:+UseG1GC -XX:MaxGCPauseMillis=10 -Dcamel.server.port=" + httpPort);

        Path log = LOGS.resolve(NAME + "-bridge.log");
        Process bridge = start(List.of(script("redis-delay-bridge")), environment, log);
        try {
            awaitLog(bridge, log, BridgeMain.READY, Duration.ofSeconds(240));
            String readiness = DockerfileModel.readinessPath();
            assertThat(awaitStatus("http://127.0.0.1:" + httpPort + readiness, 200, Duration.ofSeconds(30))).isEqualTo(200);
            assertThat(awaitStatus("http://127.0.0.1:" + httpPort + "/observe/metrics", 200, Duration.ofSeconds(30))).isEqualTo(200);
            // the image's health check finds the port in JAVA_OPTS as the bridge does
            Run healthcheck = run("healthcheck", List.of(script("healthcheck")), Map.of("JAVA_OPTS", environment.get("JAVA_OPTS")),
                    Duration.ofSeconds(30));
            assertThat(healthcheck.exitCode()).as(healthcheck.output()).isZero();

            byte[] body = new byte[4096];
            new Random(14).nextBytes(body);
            for (int b = 0; b < 256; b++) {
                body[b] = (byte) b;
            }
            byte[] key = {0, (byte) 0xff, 'k', (byte) 0x80};
            List<Header> headers = new ArrayList<>();
            headers.add(new RecordHeader("trace", new byte[] {(byte) 0xc3, 0x28, 0}));
            headers.add(new RecordHeader("x-delay", "3000".getBytes(StandardCharsets.UTF_8)));
            headers.add(new RecordHeader("repeated", "one".getBytes(StandardCharsets.UTF_8)));
            headers.add(new RecordHeader("x-target", ("kafka:" + target).getBytes(StandardCharsets.UTF_8)));
            headers.add(new RecordHeader("x-message-id", (PREFIX + "-binary").getBytes(StandardCharsets.UTF_8)));
            headers.add(new RecordHeader("empty", null));
            headers.add(new RecordHeader("repeated", "two".getBytes(StandardCharsets.UTF_8)));
            long sentAt = System.currentTimeMillis();
            kafka.send(inbound, key, body, headers).get(30, TimeUnit.SECONDS);

            // and one through the distribution's publisher, as a user would
            Run published = run("publish", List.of(script("publish"), "--bootstrap", EmbeddedKafka.bootstrapServers(),
                    "--topic", inbound, "--delay", "1000", "--target", "kafka:" + target, "--id", PREFIX + "-text", "hello"),
                    Map.of(), Duration.ofSeconds(60));
            assertThat(published.exitCode()).as(published.output()).isZero();

            List<KafkaTestClient.Received> arrived = kafka.consume(target, 2, Duration.ofSeconds(90));
            assertThat(arrived).as("arrivals on %s; bridge log in %s", target, log).hasSize(2);
            KafkaTestClient.Received binary = arrived.stream().filter(r -> (PREFIX + "-binary").equals(r.messageId())).findFirst().orElseThrow();
            KafkaTestClient.Received text = arrived.stream().filter(r -> (PREFIX + "-text").equals(r.messageId())).findFirst().orElseThrow();

            assertThat(binary.record().value()).isEqualTo(body);
            assertThat(binary.record().key()).isEqualTo(key);
            List<String> names = new ArrayList<>();
            binary.record().headers().forEach(h -> names.add(h.key()));
            assertThat(names).containsExactly("trace", "repeated", "empty", "repeated", "x-message-id", "x-delay-due-at");
            assertThat(binary.record().headers().headers("trace").iterator().next().value()).isEqualTo(new byte[] {(byte) 0xc3, 0x28, 0});
            assertThat(binary.record().headers().lastHeader("empty").value()).isNull();
            long dueAt = Long.parseLong(binary.header("x-delay-due-at"));
            assertThat(dueAt - sentAt).as("due 3 s after it was sent (Redis's clock, this host)").isGreaterThanOrEqualTo(3_000 - 50);
            assertThat(binary.receivedAtMs()).as("not early").isGreaterThanOrEqualTo(dueAt - 50);
            assertThat(text.record().value()).isEqualTo("hello".getBytes(StandardCharsets.UTF_8));

            bridge.destroy();
            assertThat(bridge.waitFor(60, TimeUnit.SECONDS)).as("stopped within camel.main.shutdown-timeout after SIGTERM").isTrue();
            assertThat(bridge.exitValue()).isIn(0, 143);
            String output = Files.readString(log);
            assertThat(output.lines().filter(line -> line.contains(" ERROR ") || line.startsWith("\tat ")).toList())
                    .as("ERROR lines and stack traces in %s", log).isEmpty();
            assertThat(output).as("read its settings from the install location").contains("settings from " + DISTRIBUTION.resolve("config/application.properties"));
        } finally {
            bridge.destroyForcibly();
        }
    }

    private static String script(String name) {
        return DISTRIBUTION.resolve("bin").resolve(name).toString();
    }

    private record Run(int exitCode, String output) {
    }

    /** Runs a command from the empty directory, stdout and stderr together. */
    private static Run run(String name, List<String> command, Map<String, String> environment, Duration timeout) throws Exception {
        Path log = LOGS.resolve(NAME + "-" + name + ".log");
        Process process = start(command, environment, log);
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(command + " still ran after " + timeout + ":\n" + Files.readString(log));
        }
        return new Run(process.exitValue(), Files.readString(log));
    }

    private static Process start(List<String> command, Map<String, String> environment, Path log) throws IOException {
        Files.createDirectories(log.getParent());
        ProcessBuilder builder = new ProcessBuilder(command).directory(emptyWorkingDirectory.toFile())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.to(log.toFile()));
        builder.environment().keySet().removeIf(name -> name.startsWith("BRIDGE_") || name.equals("JAVA_OPTS"));
        builder.environment().putAll(environment);
        assertThat(new File(command.get(0)).getName()).isNotEmpty();
        return builder.start();
    }

    private static void awaitLog(Process process, Path log, String text, Duration timeout) throws Exception {
        long deadline = System.currentTimeMillis() + timeout.toMillis();
        while (System.currentTimeMillis() < deadline) {
            String output = Files.exists(log) ? Files.readString(log) : "";
            if (output.contains(text)) {
                return;
            }
            if (!process.isAlive()) {
                throw new AssertionError("exited with " + process.exitValue() + " before '" + text + "':\n" + output);
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no '" + text + "' within " + timeout + ":\n" + Files.readString(log));
    }

    private static int awaitStatus(String url, int expected, Duration timeout) throws Exception {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        long deadline = System.currentTimeMillis() + timeout.toMillis();
        int status = -1;
        while (System.currentTimeMillis() < deadline) {
            try {
                status = client.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode();
                if (status == expected) {
                    return status;
                }
            } catch (IOException e) {
                status = -1;
            }
            Thread.sleep(500);
        }
        return status;
    }
}
