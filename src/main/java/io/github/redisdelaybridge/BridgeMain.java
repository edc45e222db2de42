package io.github.redisdelaybridge;

import io.github.redisdelaybridge.config.BridgeBeans;
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

    private static final Logger LOG = LoggerFactory.getLogger(BridgeMain.class);

    private BridgeMain() {
    }

    public static void main(String[] args) throws Exception {
        newMain().run(args);
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
