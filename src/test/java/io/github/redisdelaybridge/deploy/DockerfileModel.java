package io.github.redisdelaybridge.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The instructions of a Dockerfile, by stage: enough to check it without a Docker engine. */
record DockerfileModel(List<Stage> stages) {

    static final Path DOCKERFILE = Path.of("Dockerfile");

    record Instruction(String keyword, String arguments) {
    }

    record Stage(String image, String name, List<Instruction> instructions) {

        List<Instruction> all(String keyword) {
            return instructions.stream().filter(i -> i.keyword().equals(keyword)).toList();
        }

        Optional<Instruction> last(String keyword) {
            List<Instruction> found = all(keyword);
            return found.isEmpty() ? Optional.empty() : Optional.of(found.get(found.size() - 1));
        }
    }

    /** A COPY: {@code --from} stage (null: the build context), sources, destination. */
    record Copy(String from, List<String> sources, String destination) {
    }

    static DockerfileModel read() {
        try {
            return parse(Files.readString(DOCKERFILE));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static DockerfileModel parse(String text) {
        List<Stage> stages = new ArrayList<>();
        StringBuilder logical = new StringBuilder();
        for (String line : text.split("\n")) {
            String stripped = line.strip();
            if (logical.isEmpty() && (stripped.isEmpty() || stripped.startsWith("#"))) {
                continue;
            }
            if (!logical.isEmpty() && stripped.startsWith("#")) {
                continue;
            }
            if (stripped.endsWith("\\")) {
                logical.append(stripped, 0, stripped.length() - 1).append(' ');
                continue;
            }
            logical.append(stripped);
            String instruction = logical.toString().strip();
            logical.setLength(0);
            int space = instruction.indexOf(' ');
            String keyword = instruction.substring(0, space).toUpperCase(Locale.ROOT);
            String arguments = instruction.substring(space + 1).strip().replaceAll("\\s+", " ");
            if (keyword.equals("FROM")) {
                String[] parts = arguments.split(" ");
                stages.add(new Stage(parts[0], parts.length >= 3 && parts[1].equalsIgnoreCase("AS") ? parts[2] : null, new ArrayList<>()));
            } else {
                stages.get(stages.size() - 1).instructions().add(new Instruction(keyword, arguments));
            }
        }
        return new DockerfileModel(stages);
    }

    Stage runtime() {
        return stages.get(stages.size() - 1);
    }

    Stage stage(String name) {
        return stages.stream().filter(s -> name.equals(s.name())).findFirst().orElseThrow(() -> new AssertionError("no stage " + name));
    }

    static List<Copy> copies(Stage stage) {
        List<Copy> copies = new ArrayList<>();
        for (Instruction copy : stage.all("COPY")) {
            List<String> words = new ArrayList<>(List.of(copy.arguments().split(" ")));
            String from = null;
            while (words.get(0).startsWith("--")) {
                String option = words.remove(0);
                if (option.startsWith("--from=")) {
                    from = option.substring("--from=".length());
                }
            }
            String destination = words.remove(words.size() - 1);
            copies.add(new Copy(from, List.copyOf(words), destination));
        }
        return copies;
    }

    /** NAME=value pairs of the stage's ENV instructions (values unquoted). */
    static java.util.Map<String, String> environment(Stage stage) {
        java.util.Map<String, String> environment = new java.util.LinkedHashMap<>();
        Matcher m = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)=(\"[^\"]*\"|\\S*)").matcher("");
        for (Instruction env : stage.all("ENV")) {
            m.reset(env.arguments());
            while (m.find()) {
                String value = m.group(2);
                environment.put(m.group(1), value.startsWith("\"") ? value.substring(1, value.length() - 1) : value);
            }
        }
        return environment;
    }

    /** The distribution's health check script, the one the image's HEALTHCHECK runs. */
    static final Path HEALTHCHECK_SCRIPT = Path.of("bin/healthcheck");

    /** The path the image's health check requests: readiness (the script's URL). */
    static String readinessPath() {
        try {
            Matcher m = Pattern.compile("https?://[^/\\s\"']+(/[^\\s\"']*)").matcher(Files.readString(HEALTHCHECK_SCRIPT));
            if (!m.find()) {
                throw new AssertionError(HEALTHCHECK_SCRIPT + " requests no URL");
            }
            return m.group(1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The runtime stage's HEALTHCHECK command. */
    String healthcheck() {
        return runtime().last("HEALTHCHECK").orElseThrow(() -> new AssertionError("no HEALTHCHECK")).arguments();
    }

    /** ARG name -> default (null: none) of a stage. */
    static java.util.Map<String, String> buildArguments(Stage stage) {
        java.util.Map<String, String> arguments = new java.util.LinkedHashMap<>();
        for (Instruction arg : stage.all("ARG")) {
            String[] parts = arg.arguments().split("=", 2);
            arguments.put(parts[0], parts.length == 2 ? parts[1].replaceAll("^\"|\"$", "") : null);
        }
        return arguments;
    }

    /** name -> value of the stage's LABEL instructions (values unquoted). */
    static java.util.Map<String, String> labels(Stage stage) {
        java.util.Map<String, String> labels = new java.util.LinkedHashMap<>();
        Matcher m = Pattern.compile("([A-Za-z0-9_.\\-]+)=(\"[^\"]*\"|\\S*)").matcher("");
        for (Instruction label : stage.all("LABEL")) {
            m.reset(label.arguments());
            while (m.find()) {
                String value = m.group(2);
                labels.put(m.group(1), value.startsWith("\"") ? value.substring(1, value.length() - 1) : value);
            }
        }
        return labels;
    }
}
