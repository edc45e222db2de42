package io.github.redisdelaybridge.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The metric table of docs/observe.md: name -> type, as documented (so the tests hold the code to the document). */
public final class MetricTable {

    public static final Path DOCUMENT = Path.of("docs/observe.md");
    private static final Pattern ROW = Pattern.compile("^\\| `([a-z_:][a-z0-9_:]*)` \\| (counter|gauge|histogram|summary) \\|.*\\|$");

    private MetricTable() {
    }

    public static Map<String, String> read() {
        Map<String, String> types = new LinkedHashMap<>();
        try {
            for (String line : Files.readAllLines(DOCUMENT)) {
                Matcher row = ROW.matcher(line);
                if (row.matches()) {
                    types.put(row.group(1), row.group(2));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return types;
    }
}
