package io.github.redisdelaybridge.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/** YAML documents as maps and lists (SnakeYAML Engine, which camel-yaml-dsl brings). */
final class YamlFiles {

    private YamlFiles() {
    }

    /** Every document of the file. */
    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> documents(Path file) {
        try {
            List<Map<String, Object>> documents = new ArrayList<>();
            for (Object document : new Load(LoadSettings.builder().build()).loadAllFromString(Files.readString(file))) {
                if (document != null) {
                    documents.add((Map<String, Object>) document);
                }
            }
            return documents;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The value at a path of map keys, e.g. {@code at(doc, "spec", "template", "spec")}; null if absent. */
    @SuppressWarnings("unchecked")
    static <T> T at(Object node, String... path) {
        Object current = node;
        for (String key : path) {
            if (!(current instanceof Map<?, ?> map)) {
                return null;
            }
            current = map.get(key);
        }
        return (T) current;
    }

    static String text(Object node, String... path) {
        Object value = at(node, path);
        return value == null ? null : value.toString();
    }
}
