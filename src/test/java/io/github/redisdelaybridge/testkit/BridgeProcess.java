package io.github.redisdelaybridge.testkit;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A bridge in a JVM of its own (io.github.redisdelaybridge.BridgeMain, the production entry point),
 * configured only through environment variables, as an operator would. A test can SIGKILL it.
 */
public final class BridgeProcess {

    private BridgeProcess() {
    }

    /** The settings of {@link BridgeInstance#settings} but the HTTP ports, which {@link #start} picks for the child. */
    public static Map<String, String> settings(String name, String redisUri) {
        Map<String, String> settings = BridgeInstance.settings(name, redisUri);
        settings.remove("camel.server.port");
        settings.remove("camel.management.port");
        return settings;
    }

    /** Starts a bridge with {@code settings} (bridge.* keys) and waits until its routes run. */
    public static ChildProcess start(String name, Map<String, String> settings) throws InterruptedException {
        Map<String, String> environment = new LinkedHashMap<>();
        settings.forEach((key, value) -> environment.put(key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_'), value));
        int httpPort = FreePorts.next();
        // -D, not CAMEL_SERVER_PORT: Camel Main ignores environment variables ending in _PORT
        List<String> jvmOptions = List.of("-Dcamel.server.port=" + httpPort, "-Dcamel.management.port=" + httpPort);
        ChildProcess process = ChildProcess.java(name, "io.github.redisdelaybridge.BridgeMain", jvmOptions, environment).start();
        try {
            process.awaitLog(io.github.redisdelaybridge.BridgeMain.READY, Duration.ofSeconds(120));
        } catch (RuntimeException | InterruptedException e) {
            // not handed to the test, so nobody else would end it: it would outlive the test JVM
            process.close();
            throw e;
        }
        return process;
    }
}
