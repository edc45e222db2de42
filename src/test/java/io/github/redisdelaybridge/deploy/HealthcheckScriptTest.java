package io.github.redisdelaybridge.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/healthcheck, the image's HEALTHCHECK, asks readiness on the port the bridge listens on wherever that port is
 * set (a -D option in JAVA_OPTS, the home's properties file), and says healthy only for a 2xx answer. A stand-in HTTP
 * server plays the bridge; the script runs as the image runs it, with bash and curl.
 */
class HealthcheckScriptTest {

    private static final Path SCRIPT = Path.of("bin/healthcheck").toAbsolutePath();

    private final AtomicInteger readinessStatus = new AtomicInteger(200);
    private HttpServer bridge;

    @TempDir
    Path home;

    @BeforeEach
    void startStandIn() throws IOException {
        bridge = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 10);
        bridge.createContext("/", exchange -> {
            int status = exchange.getRequestURI().getPath().equals(DockerfileModel.readinessPath()) ? readinessStatus.get() : 404;
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        bridge.start();
    }

    @AfterEach
    void stop() {
        bridge.stop(0);
    }

    @Test
    void followsTheServerPortGivenInJavaOpts() throws Exception {
        int port = bridge.getAddress().getPort();
        // the shipped configuration: health and metrics on camel.server.port
        Map<String, String> environment = Map.of("BRIDGE_HOME", Path.of("").toAbsolutePath().toString(),
                "JAVA_OPTS", "-XX:+UseG1GC -Dcamel.server.port=" + port + " -Xmx1g");

        assertThat(run(environment)).as("ready").isZero();
        readinessStatus.set(503);
        assertThat(run(environment)).as("not ready").isEqualTo(1);
    }

    @Test
    void followsThePortsOfTheHomesPropertiesFile() throws Exception {
        int port = bridge.getAddress().getPort();
        Files.createDirectories(home.resolve("config"));
        Files.writeString(home.resolve("config/application.properties"),
                "camel.server.port = 1\ncamel.management.port=" + port + "\n");

        assertThat(run(Map.of("BRIDGE_HOME", home.toString()))).isZero();
    }

    @Test
    void nothingListeningIsUnhealthy() throws Exception {
        int port = bridge.getAddress().getPort();
        bridge.stop(0);

        assertThat(run(Map.of("BRIDGE_HOME", home.toString(), "JAVA_OPTS", "-Dcamel.server.port=" + port))).isEqualTo(1);
    }

    private static int run(Map<String, String> environment) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(List.of(SCRIPT.toString())).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        builder.environment().keySet().removeIf(name -> name.startsWith("BRIDGE_") || name.equals("JAVA_OPTS"));
        builder.environment().putAll(environment);
        Process process = builder.start();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("finished").isTrue();
        return process.exitValue();
    }
}
