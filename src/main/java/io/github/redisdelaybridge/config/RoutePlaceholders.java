package io.github.redisdelaybridge.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** The {@code bridge.*} keys the route files read through placeholders: keys the bridge knows, though no Java code reads them. */
public final class RoutePlaceholders {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{\\??(bridge\\.[A-Za-z0-9.\\-]+)(?::[^}]*)?}}");

    private RoutePlaceholders() {
    }

    /**
     * The {@code bridge.*} keys read by {@code {{...}}} placeholders in the route files that
     * {@code camel.main.routes-include-pattern} names ({@code file:} patterns; a {@code *} or {@code ?} in the
     * file name, e.g. {@code file:/opt/bridge/routes/*.yaml}). Other kinds of location are not scanned.
     */
    public static Set<String> placeholderKeys(String routesIncludePattern) {
        Set<String> keys = new TreeSet<>();
        for (Path file : routeFiles(routesIncludePattern)) {
            try {
                Matcher m = PLACEHOLDER.matcher(Files.readString(file, StandardCharsets.UTF_8));
                while (m.find()) {
                    keys.add(m.group(1));
                }
            } catch (IOException e) {
                throw new UncheckedIOException("could not read " + file, e);
            }
        }
        return keys;
    }

    static List<Path> routeFiles(String routesIncludePattern) {
        Set<Path> files = new LinkedHashSet<>();
        if (routesIncludePattern == null) {
            return List.of();
        }
        for (String entry : routesIncludePattern.split(",")) {
            String location = entry.strip();
            if (!location.startsWith("file:")) {
                continue;
            }
            Path path = Path.of(location.substring("file:".length()));
            String name = path.getFileName() == null ? "" : path.getFileName().toString();
            if (name.contains("*") || name.contains("?")) {
                Path directory = path.getParent() == null ? Path.of(".") : path.getParent();
                PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + name);
                if (Files.isDirectory(directory)) {
                    try (Stream<Path> listed = Files.list(directory)) {
                        listed.filter(p -> matcher.matches(p.getFileName())).sorted().forEach(files::add);
                    } catch (IOException e) {
                        throw new UncheckedIOException("could not list " + directory, e);
                    }
                }
            } else if (Files.isRegularFile(path)) {
                files.add(path);
            }
        }
        return List.copyOf(files);
    }
}
