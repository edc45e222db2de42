package io.github.redisdelaybridge.testkit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One scrape of a Prometheus text exposition (/observe/metrics): the family types ({@code # TYPE name type}) and the
 * samples, by name and labels.
 */
public final class PrometheusScrape {

    /** One sample line: {@code name{label="value",...} value}. */
    public record Sample(String name, Map<String, String> labels, double value) {
    }

    private static final Pattern TYPE = Pattern.compile("^# TYPE (\\S+) (\\S+)$");
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})?\\s+(\\S+)(\\s+\\S+)?$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    private final Map<String, String> types = new TreeMap<>();
    private final List<Sample> samples = new ArrayList<>();
    private final String text;

    private PrometheusScrape(String text) {
        this.text = text;
        for (String line : text.split("\n")) {
            Matcher type = TYPE.matcher(line);
            if (type.matches()) {
                types.put(type.group(1), type.group(2));
                continue;
            }
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            Matcher sample = SAMPLE.matcher(line);
            if (!sample.matches()) {
                throw new IllegalArgumentException("not a sample line: " + line);
            }
            Map<String, String> labels = new LinkedHashMap<>();
            if (sample.group(3) != null) {
                Matcher label = LABEL.matcher(sample.group(3));
                while (label.find()) {
                    labels.put(label.group(1), label.group(2));
                }
            }
            samples.add(new Sample(sample.group(1), labels, number(sample.group(4))));
        }
    }

    private static double number(String value) {
        return switch (value) {
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            case "NaN" -> Double.NaN;
            default -> Double.parseDouble(value);
        };
    }

    public static PrometheusScrape parse(String text) {
        return new PrometheusScrape(text);
    }

    /** GETs /observe/metrics of a bridge and parses it; fails unless it answers 200. */
    public static PrometheusScrape of(BridgeInstance bridge) {
        String response = bridge.httpGet("/observe/metrics");
        if (!response.startsWith("200 ")) {
            throw new IllegalStateException("/observe/metrics answered " + response.substring(0, Math.min(200, response.length())));
        }
        return parse(response.substring(4));
    }

    /**
     * The type of a metric family as a query names it: {@code x_total} (a counter whose TYPE line may say {@code x}),
     * {@code x_bucket}/{@code x_count}/{@code x_sum} of a histogram or summary {@code x}; null if the scrape has no such family.
     */
    public String typeOf(String name) {
        if (types.containsKey(name)) {
            return types.get(name);
        }
        if (name.endsWith("_total") && "counter".equals(types.get(name.substring(0, name.length() - 6)))) {
            return "counter";
        }
        for (String suffix : List.of("_bucket", "_count", "_sum", "_created")) {
            if (name.endsWith(suffix) && types.containsKey(name.substring(0, name.length() - suffix.length()))) {
                return types.get(name.substring(0, name.length() - suffix.length()));
            }
        }
        return null;
    }

    /** Whether any sample line carries this exact name. */
    public boolean hasSample(String name) {
        return samples.stream().anyMatch(s -> s.name().equals(name));
    }

    public List<Sample> samples(String name) {
        return samples.stream().filter(s -> s.name().equals(name)).toList();
    }

    /** The value of the one sample of {@code name} whose labels include {@code labels}; fails if none or several. */
    public double value(String name, Map<String, String> labels) {
        List<Sample> matching = samples(name).stream().filter(s -> s.labels().entrySet().containsAll(labels.entrySet())).toList();
        if (matching.size() != 1) {
            throw new AssertionError(matching.size() + " samples of " + name + " with " + labels + " (want 1)");
        }
        return matching.get(0).value();
    }

    public double value(String name) {
        return value(name, Map.of());
    }

    /** The sum over every sample of {@code name} whose labels include {@code labels}. */
    public double sum(String name, Map<String, String> labels) {
        return samples(name).stream().filter(s -> s.labels().entrySet().containsAll(labels.entrySet())).mapToDouble(Sample::value).sum();
    }

    public Map<String, String> types() {
        return types;
    }

    public String text() {
        return text;
    }
}
