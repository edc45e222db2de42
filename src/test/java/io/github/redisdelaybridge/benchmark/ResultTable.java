package io.github.redisdelaybridge.benchmark;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The one table the benchmark prints: scenario | target | measured | ratio/verdict, plus the machine line. */
final class ResultTable {

    record Row(String scenario, String target, String measured, String verdict) {
    }

    private final List<Row> rows = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    synchronized void add(String scenario, String target, String measured, String verdict) {
        rows.add(new Row(scenario, target, measured, verdict));
        System.out.printf("%n>>> %s | %s | %s | %s%n%n", scenario, target, measured, verdict);
    }

    synchronized void note(String note) {
        notes.add(note);
        System.out.println(">>> note: " + note);
    }

    static String verdict(boolean met, String detail) {
        return (met ? "MET" : "MISSED") + (detail == null || detail.isEmpty() ? "" : " (" + detail + ")");
    }

    synchronized String render(String machineLine, String runLine) {
        StringBuilder out = new StringBuilder();
        out.append(machineLine).append("\n\n").append(runLine).append("\n\n");
        out.append("| scenario | target | measured | ratio / verdict |\n");
        out.append("| --- | --- | --- | --- |\n");
        for (Row row : rows) {
            out.append("| ").append(cell(row.scenario())).append(" | ").append(cell(row.target())).append(" | ")
                    .append(cell(row.measured())).append(" | ").append(cell(row.verdict())).append(" |\n");
        }
        if (!notes.isEmpty()) {
            out.append('\n');
            for (String note : notes) {
                out.append("- ").append(note).append('\n');
            }
        }
        return out.toString();
    }

    void write(Path file, String rendered) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, rendered, StandardCharsets.UTF_8);
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }
}
