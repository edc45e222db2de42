package io.github.redisdelaybridge;

import io.github.redisdelaybridge.config.BridgeBeans;
import io.github.redisdelaybridge.config.BridgeHome;
import io.github.redisdelaybridge.config.BuildInfo;
import io.github.redisdelaybridge.config.HttpAddressCheck;
import io.github.redisdelaybridge.config.HttpAddressInUseException;
import io.github.redisdelaybridge.config.InvalidSettingsException;
import io.github.redisdelaybridge.config.LogFormat;
import io.github.redisdelaybridge.config.SettingsCheck;
import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.apache.camel.main.BaseMainSupport;
import org.apache.camel.main.Main;
import org.apache.camel.main.MainListenerSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts the bridge: Camel Main with the settings in config/application.properties (overridable by
 * environment variables), the beans of {@link BridgeBeans} and the YAML routes in routes/, both taken
 * from the bridge's home directory ({@link BridgeHome}: --home, -Dbridge.home, BRIDGE_HOME, or the
 * install location), never from the current directory.
 */
public final class BridgeMain {

    /** Logged once every route runs; scripts and tests wait for it. */
    public static final String READY = "redis-delay-bridge ready";

    /** Options wrong: usage printed, nothing started. Invalid configuration exits the same way. */
    public static final int USAGE_EXIT_CODE = InvalidSettingsException.EXIT_CODE;

    private static final Logger LOG = LoggerFactory.getLogger(BridgeMain.class);

    private static final String USAGE = """
            Usage: redis-delay-bridge [--home DIR] [--version] [--help]

            Runs redis-delay-bridge: delayed messages from Kafka and RabbitMQ, kept in Redis and published
            when due.

              --home DIR   read DIR/config/application.properties and the routes in DIR/routes/
                           (default: -Dbridge.home, else $BRIDGE_HOME, else the directory the bridge is
                           installed in; never the current directory)
              --version    print the version, the commit it was built from, and exit
              --help       print this help and exit

            Every setting can be overridden by an environment variable: upper case, dots and dashes as
            underscores (bridge.redis.uri -> BRIDGE_REDIS_URI). An unknown bridge.* setting or BRIDGE_*
            variable stops the start. bin/redis-delay-bridge passes JAVA_OPTS to the JVM.
            Exit status: 0 after a normal stop, 2 for bad options or configuration, 1 for other failures.
            """;

    private BridgeMain() {
    }

    public static void main(String[] args) throws Exception {
        String home = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--help", "-h" -> {
                    System.out.print(USAGE);
                    return;
                }
                case "--version", "-V" -> {
                    System.out.println(versionLine());
                    return;
                }
                case "--home" -> {
                    if (i + 1 == args.length) {
                        usageError("--home needs a directory");
                    }
                    home = args[++i];
                }
                default -> usageError("unknown option '" + args[i] + "'");
            }
        }
        LogFormat.applyEarly();
        AtomicReference<String> unfit = new AtomicReference<>();
        try {
            Main main = newMain(BridgeHome.resolve(home));
            // a Redis found unfit after the start (it was down then, and came with eviction on, say): stop, exit 2
            main.bind(BridgeBeans.FATAL_STOP, (Consumer<String>) reason -> {
                unfit.set(reason);
                main.completed();
            });
            main.run();
        } catch (Exception e) {
            InvalidSettingsException invalid = InvalidSettingsException.in(e);
            HttpAddressInUseException inUse = HttpAddressInUseException.in(e);
            if (invalid != null) {
                invalid.problems().forEach(problem -> System.err.println("redis-delay-bridge: configuration: " + problem));
                haltBeforeStart(InvalidSettingsException.EXIT_CODE);
            } else if (inUse != null) {
                inUse.problems().forEach(problem -> System.err.println("redis-delay-bridge: " + problem));
                haltBeforeStart(HttpAddressInUseException.EXIT_CODE);
            }
            throw e;
        }
        if (unfit.get() != null) {
            System.err.println("redis-delay-bridge: cannot run on this Redis: " + unfit.get());
            System.exit(InvalidSettingsException.EXIT_CODE);
        }
    }

    /** A configured, not yet started Camel Main; tests and the embedded launcher start it themselves. */
    public static Main newMain() {
        return newMain(BridgeHome.resolve(null));
    }

    /** A configured, not yet started Camel Main reading its settings and routes from {@code home}. */
    public static Main newMain(BridgeHome home) {
        Main main = new Main();
        main.configure().addConfiguration(BridgeBeans.class);
        main.setDefaultPropertyPlaceholderLocation("file:" + home.configFile());
        // the default; camel.main.routes-include-pattern in the properties file or the environment wins
        main.addInitialProperty(SettingsCheck.ROUTES_INCLUDE_PATTERN, "file:" + home.routesDirectory() + "/*.yaml");
        main.addMainListener(new MainListenerSupport() {
            @Override
            public void beforeConfigure(BaseMainSupport configuring) {
                // before the configuration connects to anything: a taken port stops the start here
                HttpAddressCheck.requireFree(key -> configuring.getCamelContext().getPropertiesComponent().resolveProperty(key).orElse(null));
            }

            @Override
            public void afterStart(BaseMainSupport started) {
                LOG.info("{} started: routes {}", READY, started.getCamelContext().getRoutes().stream().map(r -> r.getRouteId()).toList());
            }
        });
        LOG.info("{}, settings from {}", versionLine(), home.configFile());
        return main;
    }

    /** This build's version, e.g. {@code 0.1.0}. */
    public static String version() {
        return BuildInfo.current().version();
    }

    private static String versionLine() {
        String camel = Main.class.getPackage().getImplementationVersion();
        BuildInfo build = BuildInfo.current();
        return "redis-delay-bridge " + build.version() + " (commit " + build.commit() + ", Apache Camel " + (camel == null ? "unknown" : camel)
                + ", Java " + Runtime.version() + ")";
    }

    /**
     * Halt, not exit: nothing has started that needs stopping, and Camel's shutdown hook would log a stop
     * "triggered by SIGTERM" after the lines printed.
     */
    private static void haltBeforeStart(int exitCode) {
        System.err.flush();
        Runtime.getRuntime().halt(exitCode);
    }

    private static void usageError(String problem) {
        PrintStream err = System.err;
        err.println("redis-delay-bridge: " + problem + " (see --help)");
        System.exit(USAGE_EXIT_CODE);
    }
}
