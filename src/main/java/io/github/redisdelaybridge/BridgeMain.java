package io.github.redisdelaybridge;

import io.github.redisdelaybridge.config.BridgeBeans;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.apache.camel.main.BaseMainSupport;
import org.apache.camel.main.Main;
import org.apache.camel.main.MainListenerSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts the bridge: Camel Main with the settings in config/application.properties (overridable by
 * environment variables), the beans of {@link BridgeBeans} and the YAML routes in routes/.
 */
public final class BridgeMain {

    /** Logged once every route runs; scripts and tests wait for it. */
    public static final String READY = "redis-delay-bridge ready";
    /** Exit code when the bridge cannot run as configured (bad settings, a Redis that cannot keep its promises). */
    public static final int EXIT_UNFIT = 2;

    private static final Logger LOG = LoggerFactory.getLogger(BridgeMain.class);

    private BridgeMain() {
    }

    public static void main(String[] args) throws Exception {
        AtomicReference<String> fatal = new AtomicReference<>();
        Main main = newMain();
        main.bind(BridgeBeans.FATAL_STOP, (Consumer<String>) reason -> {
            LOG.error("stopping the bridge: {}", reason);
            fatal.set(reason);
            main.completed();
        });
        int exitCode;
        try {
            exitCode = main.run(args);
        } catch (Exception e) {
            LOG.error("the bridge did not start: {}", e.getMessage());
            exitCode = EXIT_UNFIT;
        }
        if (fatal.get() != null) {
            exitCode = EXIT_UNFIT;
        }
        System.exit(exitCode);
    }

    /** A configured, not yet started Camel Main; tests and the embedded launcher start it themselves. */
    public static Main newMain() {
        Main main = new Main();
        main.configure().addConfiguration(BridgeBeans.class);
        main.setDefaultPropertyPlaceholderLocation("file:config/application.properties");
        main.addMainListener(new MainListenerSupport() {
            @Override
            public void afterStart(BaseMainSupport started) {
                LOG.info("{} started: routes {}", READY, started.getCamelContext().getRoutes().stream().map(r -> r.getRouteId()).toList());
            }
        });
        return main;
    }
}
