package io.github.redisdelaybridge.config;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * What this build is: its version and the commit it was built from ({@code -dirty} when the checkout had local
 * changes), as Maven wrote them into {@value #RESOURCE}. A build from a source tree without git names no commit:
 * "unknown", never a placeholder.
 */
public record BuildInfo(String version, String commit) {

    static final String RESOURCE = "/redis-delay-bridge-version.properties";

    private static final String UNKNOWN = "unknown";

    /** This build's, from the class path (the jar, or target/classes). */
    public static BuildInfo current() {
        try (InputStream in = BuildInfo.class.getResourceAsStream(RESOURCE)) {
            Properties properties = null;
            if (in != null) {
                properties = new Properties();
                properties.load(in);
            }
            return from(properties, BuildInfo.class.getPackage().getImplementationVersion());
        } catch (IOException e) {
            return from(null, BuildInfo.class.getPackage().getImplementationVersion());
        }
    }

    /** From the filtered resource (null: none) and the jar manifest's version (null: none). */
    static BuildInfo from(Properties properties, String manifestVersion) {
        String version = filled(properties, "version");
        if (version == null) {
            version = manifestVersion == null ? UNKNOWN : manifestVersion;
        }
        String commit = filled(properties, "commit");
        if (commit == null) {
            return new BuildInfo(version, UNKNOWN);
        }
        return new BuildInfo(version, "true".equals(filled(properties, "dirty")) ? commit + "-dirty" : commit);
    }

    private static String filled(Properties properties, String key) {
        String value = properties == null ? null : properties.getProperty(key);
        return value == null || value.isBlank() || value.contains("${") ? null : value.strip();
    }
}
