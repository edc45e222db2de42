package io.github.redisdelaybridge.config;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The directory the bridge takes {@code config/application.properties} and {@code routes/} from. Never the
 * current directory by accident: the first of
 * <ol>
 *   <li>the {@code --home DIR} option of {@code BridgeMain},</li>
 *   <li>the system property {@value #PROPERTY} (the start script {@code bin/redis-delay-bridge} sets it),</li>
 *   <li>the environment variable {@value #ENVIRONMENT_VARIABLE},</li>
 *   <li>the install location: the directory of the main jar (the distribution's top directory), or the
 *       project directory when the bridge runs from {@code target/classes} or {@code target/*.jar} of a
 *       source checkout.</li>
 * </ol>
 * The directory must hold {@code config/application.properties}.
 */
public record BridgeHome(Path directory) {

    public static final String PROPERTY = "bridge.home";
    public static final String ENVIRONMENT_VARIABLE = "BRIDGE_HOME";

    /** The settings file, relative to the home directory. */
    public static final String CONFIG_FILE = "config/application.properties";

    public Path configFile() {
        return directory.resolve(CONFIG_FILE);
    }

    public Path routesDirectory() {
        return directory.resolve("routes");
    }

    /** Resolves the home for this process; {@code option} is the --home argument, or null. */
    public static BridgeHome resolve(String option) {
        return resolve(option, System::getProperty, System::getenv, codeLocation());
    }

    /** Resolves the home from these sources; throws {@link InvalidSettingsException} when none holds the settings file. */
    static BridgeHome resolve(String option, Function<String, String> systemProperties, Function<String, String> environment,
                              Path codeLocation) {
        if (isSet(option)) {
            return checked(Path.of(option), "--home " + option);
        }
        List<Path> candidates = installCandidates(codeLocation);
        return find(systemProperties, environment, candidates).orElseThrow(() -> new InvalidSettingsException("no " + CONFIG_FILE
                + " next to the bridge's code (looked in " + candidates + "): set " + ENVIRONMENT_VARIABLE + " or pass --home DIR"));
    }

    /**
     * The home of this installation for a tool shipped with the bridge (bin/publish), found as the bridge finds its own
     * without --home: {@value #PROPERTY}, {@value #ENVIRONMENT_VARIABLE}, else the install location. Empty when none
     * was named and the install location holds no settings file; a named directory without one throws.
     */
    public static Optional<BridgeHome> find(Function<String, String> systemProperties, Function<String, String> environment) {
        return find(systemProperties, environment, installCandidates(codeLocation()));
    }

    private static Optional<BridgeHome> find(Function<String, String> systemProperties, Function<String, String> environment,
                                             List<Path> installCandidates) {
        if (isSet(systemProperties.apply(PROPERTY))) {
            return Optional.of(checked(Path.of(systemProperties.apply(PROPERTY)), "-D" + PROPERTY + "=" + systemProperties.apply(PROPERTY)));
        }
        if (isSet(environment.apply(ENVIRONMENT_VARIABLE))) {
            return Optional.of(checked(Path.of(environment.apply(ENVIRONMENT_VARIABLE)),
                    ENVIRONMENT_VARIABLE + "=" + environment.apply(ENVIRONMENT_VARIABLE)));
        }
        return installCandidates.stream().filter(candidate -> Files.isRegularFile(candidate.resolve(CONFIG_FILE)))
                .findFirst().map(candidate -> new BridgeHome(candidate.toAbsolutePath().normalize()));
    }

    /** The main jar's directory (the distribution), or up to two levels above it (target/classes, target/x.jar). */
    static List<Path> installCandidates(Path codeLocation) {
        List<Path> candidates = new ArrayList<>();
        if (codeLocation == null) {
            return candidates;
        }
        Path directory = Files.isDirectory(codeLocation) ? codeLocation : codeLocation.toAbsolutePath().getParent();
        for (int up = 0; up < 3 && directory != null; up++, directory = directory.getParent()) {
            candidates.add(directory);
        }
        return candidates;
    }

    private static BridgeHome checked(Path directory, String source) {
        Path absolute = directory.toAbsolutePath().normalize();
        if (!Files.isRegularFile(absolute.resolve(CONFIG_FILE))) {
            throw new InvalidSettingsException(source + ": " + absolute.resolve(CONFIG_FILE) + " does not exist");
        }
        return new BridgeHome(absolute);
    }

    private static boolean isSet(String value) {
        return value != null && !value.isBlank();
    }

    private static Path codeLocation() {
        try {
            var source = BridgeHome.class.getProtectionDomain().getCodeSource();
            return source == null ? null : Path.of(source.getLocation().toURI());
        } catch (URISyntaxException | IllegalArgumentException | SecurityException e) {
            return null;
        }
    }
}
