package io.github.redisdelaybridge.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.ChildProcess;
import io.github.redisdelaybridge.testkit.FreePorts;
import io.github.redisdelaybridge.testkit.LocalRedis;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Ctrl-C on bin/run-embedded stops the bridge, the broker and Redis without ERROR stack traces. */
class EmbeddedBridgeLauncherStopTest {

    private static final String PREFIX = "test-embedded-stop";

    @AfterEach
    void deleteKeys() {
        LocalRedis.deleteKeys(PREFIX);
    }

    @Test
    void ctrlCStopsEverythingWithoutErrors() throws Exception {
        int httpPort = FreePorts.next();
        try (ChildProcess launcher = ChildProcess.java("embedded-launcher-stop", EmbeddedBridgeLauncher.class.getName(),
                List.of("-Dcamel.server.port=" + httpPort, "-Dcamel.management.port=" + httpPort),
                // RabbitMQ off: the launcher would consume the shared delay.* queues of this machine's broker
                Map.of("BRIDGE_RABBITMQ_ENABLED", "false", "BRIDGE_REDIS_KEY_PREFIX", PREFIX)).start()) {
            launcher.awaitLog("Ctrl-C stops everything", Duration.ofSeconds(240));

            launcher.interrupt();
            Integer exitCode = launcher.awaitExit(Duration.ofSeconds(120)); // generous: the broker and Redis stop too, on a loaded machine

            String log = launcher.logText();
            assertThat(exitCode).as("exit code after Ctrl-C; log:%n%s", log).isEqualTo(0);
            assertThat(log).contains("stopping (SIGINT)").contains("stopped");
            assertThat(log.lines().filter(line -> line.contains("ERROR") || line.contains("Exception")).toList())
                    .as("ERROR lines and stack traces while stopping").isEmpty();
        }
    }
}
