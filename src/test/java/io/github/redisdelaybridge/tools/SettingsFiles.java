package io.github.redisdelaybridge.tools;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** Settings files for bin/publish's tests: the shipped config/application.properties with some keys set otherwise. */
final class SettingsFiles {

    static final Path SHIPPED = Path.of("config/application.properties");

    private SettingsFiles() {
    }

    /** A temporary file: the shipped settings, then {@code overrides} (a later line wins in a properties file). */
    static Path shippedWith(Map<String, String> overrides) {
        try {
            StringBuilder text = new StringBuilder(Files.readString(SHIPPED, StandardCharsets.ISO_8859_1)).append("\n# the test's\n");
            overrides.forEach((key, value) -> text.append(key).append(" = ").append(value.replace("\\", "\\\\")).append('\n'));
            Path file = Files.createTempFile("publish-settings", ".properties");
            Files.writeString(file, text, StandardCharsets.ISO_8859_1);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A bridge home directory holding such a settings file, for BRIDGE_HOME. */
    static Path homeWith(Map<String, String> overrides) {
        try {
            Path home = Files.createTempDirectory("publish-home");
            Files.createDirectories(home.resolve("config"));
            Files.move(shippedWith(overrides), home.resolve("config/application.properties"));
            return home;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A secret file, as a container would mount it (with a trailing line break, which the bridge drops). */
    static Path secret(String content) {
        try {
            Path file = Files.createTempFile("publish-secret", "");
            Files.writeString(file, content + "\n", StandardCharsets.UTF_8);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
