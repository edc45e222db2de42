package io.github.redisdelaybridge.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.BridgeMain;
import io.github.redisdelaybridge.testkit.ChildProcess;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.LocalRedis;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A bridge started on an HTTP port another process already listens on (a second bridge on one host, say) stops
 * its start with one line naming the address and a non-zero exit, before it consumes anything: running on
 * without health, metrics or admin API, it would look dead to its probes while it delivers.
 */
class HttpPortInUseExitTest {

    @Test
    void aTakenHttpPortEndsTheStartWithOneLine() throws Exception {
        String prefix = "it-port-in-use-" + UUID.randomUUID().toString().substring(0, 8);
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            int port = taken.getLocalPort();
            Map<String, String> environment = Map.of("BRIDGE_REDIS_URI", LocalRedis.URI, "BRIDGE_REDIS_KEY_PREFIX", prefix,
                    "BRIDGE_KAFKA_BOOTSTRAP_SERVERS", EmbeddedKafka.bootstrapServers(),
                    "BRIDGE_KAFKA_GROUP_ID", prefix);
            // camel.server.port alone: health and metrics follow it
            try (ChildProcess bridge = ChildProcess.java("http-port-in-use", BridgeMain.class.getName(),
                    List.of("-Dcamel.server.port=" + port), environment).start()) {
                Integer exitCode = awaitExitOrReady(bridge, Duration.ofSeconds(120));
                String log = bridge.logText();

                assertThat(log).as("started anyway").doesNotContain(BridgeMain.READY);
                assertThat(exitCode).as("exit code; output:%n%s", log).isNotNull().isNotZero();
                assertThat(log.lines().filter(line -> line.startsWith("redis-delay-bridge:")).toList())
                        .containsExactly("redis-delay-bridge: cannot listen on 127.0.0.1:" + port
                                + " (camel.server.host, camel.server.port): the address is already in use by another process");
                assertThat(log).doesNotContain("\tat ").doesNotContain(" ERROR ");
            }
        } finally {
            LocalRedis.deleteKeys(prefix);
        }
    }

    /** The exit code, or null once the bridge says it is ready (it did not see the port was taken). */
    private static Integer awaitExitOrReady(ChildProcess bridge, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            Integer exitCode = bridge.awaitExit(Duration.ofMillis(200));
            if (exitCode != null || bridge.logText().contains(BridgeMain.READY)) {
                return exitCode;
            }
        }
        return null;
    }
}
