package io.github.redisdelaybridge.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The docs hold to the shipped configuration and to each other.
 *
 * <p><b>Configuration reference.</b> The keys of config/application.properties are its {@code key = value} lines, and
 * also its comment lines of the form {@code # key = value} (a dotted lower-case key right after the {@code #}): an
 * optional setting shown commented out is a key of the file as much as a set one. docs/configuration.md documents keys
 * in tables whose first column is headed {@code key}, one key in backticks per row: every key of the file has a row,
 * and every row names a key of the file. Names the file mentions only in its comments (a family such as
 * {@code bridge.kafka.client.<property>}, the {@code <key>-file} form of a secret, a Camel option left at Camel's
 * default) go in tables whose first column is headed {@code named in a comment}: each must appear in a comment of the
 * file and must not be a key of it (once it is, it belongs in a {@code key} table).
 *
 * <p><b>Links.</b> Every relative Markdown link in README.md and docs/*.md (outside code blocks and code spans) names a
 * file that exists and, with a {@code #fragment} into a Markdown file, a heading or {@code <a id>} there. Headings become
 * anchors as GitHub makes them: lower case, punctuation other than {@code -} and {@code _} removed, spaces to
 * {@code -}, a repeated heading suffixed {@code -1}, {@code -2}.
 *
 * <p><b>Product, not history.</b> The docs describe what the bridge is and does: no "session N" or "issue N".
 */
class ConfigurationReferenceTest {

    private static final Path PROPERTIES = Path.of("config/application.properties");
    private static final Path REFERENCE = Path.of("docs/configuration.md");

    private static final Pattern SET_KEY = Pattern.compile("^([a-z][A-Za-z0-9-]*(?:\\.[A-Za-z0-9-]+)+)\\s*=.*$");
    private static final Pattern COMMENTED_KEY = Pattern.compile("^#\\s*([a-z][A-Za-z0-9-]*(?:\\.[A-Za-z0-9-]+)+)\\s*=.*$");
    private static final Pattern TABLE_HEADER = Pattern.compile("^\\|\\s*([^|]*?)\\s*\\|.*\\|\\s*$");
    private static final Pattern TABLE_ROW_KEY = Pattern.compile("^\\|\\s*`([^`]+)`\\s*\\|.*$");
    private static final Pattern LINK = Pattern.compile("!?\\[[^\\]]*\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.+?)\\s*#*\\s*$");
    private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+(?:id|name)=\"([^\"]+)\"");
    private static final Pattern CODE_SPAN = Pattern.compile("`[^`]*`");
    private static final Pattern HISTORY = Pattern.compile("(?i)\\b(sessions?|issues?)\\s+#?\\d");

    @Test
    void everyKeyOfThePropertiesFileIsInTheReference() {
        Set<String> undocumented = new TreeSet<>(propertiesKeys());
        undocumented.removeAll(referenceRows("key"));
        assertThat(undocumented).as("keys of " + PROPERTIES + " without a row in " + REFERENCE).isEmpty();
    }

    @Test
    void everyKeyOfTheReferenceIsInThePropertiesFile() {
        Set<String> unknown = new TreeSet<>(referenceRows("key"));
        unknown.removeAll(propertiesKeys());
        assertThat(unknown).as("rows of " + REFERENCE + " naming no key of " + PROPERTIES).isEmpty();
    }

    @Test
    void namesTheFileMentionsInCommentsAreInItsCommentsOnly() {
        List<String> comments = lines(PROPERTIES).stream().filter(line -> line.startsWith("#")).toList();
        Set<String> names = referenceRows("named in a comment");
        assertThat(names).as("the 'named in a comment' table of " + REFERENCE).isNotEmpty();
        for (String name : names) {
            assertThat(comments).as(name + " is named in a comment of " + PROPERTIES)
                    .anyMatch(comment -> comment.contains(name));
            assertThat(propertiesKeys()).as(name + " is a key of " + PROPERTIES + ": move it to a 'key' table")
                    .doesNotContain(name);
        }
    }

    @Test
    void everyLinkOfTheDocsNamesAFileAndAnAnchorThatExist() {
        List<String> broken = new ArrayList<>();
        Map<Path, Set<String>> anchors = new HashMap<>();
        for (Path document : documents()) {
            for (String target : links(document)) {
                if (target.matches("^[a-z][a-z0-9+.-]*:.*")) {
                    continue; // http:, https:, mailto:
                }
                int hash = target.indexOf('#');
                String file = hash < 0 ? target : target.substring(0, hash);
                String fragment = hash < 0 ? null : target.substring(hash + 1);
                Path linked = file.isEmpty() ? document : document.resolveSibling(file).normalize();
                if (!Files.exists(linked)) {
                    broken.add(document + ": " + target + " (no file " + linked + ")");
                } else if (fragment != null && linked.toString().endsWith(".md")
                        && !anchors.computeIfAbsent(linked, ConfigurationReferenceTest::anchors).contains(fragment)) {
                    broken.add(document + ": " + target + " (no heading #" + fragment + " in " + linked + ")");
                }
            }
        }
        assertThat(broken).as("links to a missing file or anchor").isEmpty();
    }

    @Test
    void theDocsDescribeTheProductNotItsHistory() {
        List<String> found = new ArrayList<>();
        for (Path document : documents()) {
            List<String> lines = lines(document);
            for (int i = 0; i < lines.size(); i++) {
                Matcher history = HISTORY.matcher(lines.get(i));
                if (history.find()) {
                    found.add(document + ":" + (i + 1) + ": " + history.group());
                }
            }
        }
        assertThat(found).as("session or issue numbers in the docs").isEmpty();
    }

    @Test
    void githubAnchorsAreMadeAsGitHubMakesThem() {
        assertThat(slug("Cancel and reschedule: outcomes")).isEqualTo("cancel-and-reschedule-outcomes");
        assertThat(slug("`bin/publish`")).isEqualTo("binpublish");
        assertThat(slug("Retries, their maximum age, and a slot")).isEqualTo("retries-their-maximum-age-and-a-slot");
        assertThat(slug("What an acknowledgement promises, by deployment"))
                .isEqualTo("what-an-acknowledgement-promises-by-deployment");
    }

    /** Keys set in the properties file, and keys shown commented out as {@code # key = value}. */
    private static Set<String> propertiesKeys() {
        Set<String> keys = new TreeSet<>();
        for (String line : lines(PROPERTIES)) {
            Matcher set = SET_KEY.matcher(line.strip());
            Matcher commented = COMMENTED_KEY.matcher(line.strip());
            if (set.matches()) {
                keys.add(set.group(1));
            } else if (commented.matches()) {
                keys.add(commented.group(1));
            }
        }
        assertThat(keys).as("keys of " + PROPERTIES).hasSizeGreaterThan(50);
        return keys;
    }

    /** The first cells of the rows of every table of the reference whose first column has this header. */
    private static Set<String> referenceRows(String firstColumn) {
        Set<String> keys = new LinkedHashSet<>();
        List<String> lines = lines(REFERENCE);
        boolean inTable = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (!line.startsWith("|")) {
                inTable = false;
                continue;
            }
            Matcher header = TABLE_HEADER.matcher(line);
            boolean startsTable = i + 1 < lines.size() && lines.get(i + 1).matches("^\\|\\s*-{3,}.*")
                    && (i == 0 || !lines.get(i - 1).startsWith("|"));
            if (startsTable) {
                inTable = header.matches() && header.group(1).equals(firstColumn);
                i++; // the separator line
                continue;
            }
            Matcher row = TABLE_ROW_KEY.matcher(line);
            if (inTable) {
                assertThat(row.matches()).as(REFERENCE + ": a row of a '" + firstColumn + "' table names one key in backticks: "
                        + line).isTrue();
                keys.add(row.group(1));
            }
        }
        return keys;
    }

    private static List<Path> documents() {
        List<Path> documents = new ArrayList<>(List.of(Path.of("README.md")));
        try (Stream<Path> docs = Files.list(Path.of("docs"))) {
            docs.filter(path -> path.toString().endsWith(".md")).sorted().forEach(documents::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return documents;
    }

    /** The link targets of a Markdown file, outside fenced code blocks and code spans (which may span lines). */
    private static List<String> links(Path document) {
        List<String> targets = new ArrayList<>();
        for (String paragraph : String.join("\n", prose(document)).split("\n\\s*\n")) {
            Matcher link = LINK.matcher(CODE_SPAN.matcher(paragraph).replaceAll(""));
            while (link.find()) {
                targets.add(link.group(1));
            }
        }
        return targets;
    }

    /** The anchors a Markdown file offers: its headings' GitHub slugs and its explicit {@code <a id>}s. */
    private static Set<String> anchors(Path document) {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        for (String line : prose(document)) {
            Matcher heading = HEADING.matcher(line);
            if (heading.matches()) {
                String slug = slug(heading.group(1));
                int count = seen.merge(slug, 1, Integer::sum);
                anchors.add(count == 1 ? slug : slug + "-" + (count - 1));
            }
            Matcher explicit = HTML_ANCHOR.matcher(line);
            while (explicit.find()) {
                anchors.add(explicit.group(1));
            }
        }
        return anchors;
    }

    /** A heading's anchor as GitHub makes it (links in the heading keep their text). */
    static String slug(String heading) {
        String text = heading.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1").toLowerCase(Locale.ROOT);
        return text.replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
    }

    /** The lines of a Markdown file outside fenced code blocks. */
    private static List<String> prose(Path document) {
        List<String> prose = new ArrayList<>();
        boolean fenced = false;
        for (String line : lines(document)) {
            if (line.strip().startsWith("```")) {
                fenced = !fenced;
            } else if (!fenced) {
                prose.add(line);
            }
        }
        return prose;
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
