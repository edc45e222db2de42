package io.github.redisdelaybridge;

import io.github.redisdelaybridge.config.BridgeBeans;
import org.apache.camel.main.Main;

/**
 * Starts the bridge: Camel Main with the settings in config/application.properties (overridable by
 * environment variables), the beans of {@link BridgeBeans} and the YAML routes in routes/.
 */
public final class BridgeMain {

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
        return main;
    }
}
