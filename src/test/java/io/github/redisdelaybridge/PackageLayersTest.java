package io.github.redisdelaybridge;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The package graph as docs/ARCHITECTURE.md draws it: layers from the bottom up, each importing only
 * downward, and no cycle between packages. A new arrow that points up fails here with the classes that
 * draw it.
 */
class PackageLayersTest {

    private static final String ROOT = "io.github.redisdelaybridge";

    /** Bottom first. A package may depend on packages listed before it, never on those after it. */
    static final List<String> LAYERS = List.of(
            "message",     // the vocabulary: header names, envelope and its codec, target, due time, dead-letter reasons
            "store",       // Redis: keys, connection, scripts, stored forms, and the faces by caller (STORE_ROOMS)
            "metrics",     // meters every layer above records into
            "outbound",    // broker clients and target publishers
            "deadletter",  // dead-letter channels, built on the broker clients
            "dispatch",    // claim due messages, publish, settle, retry or dead-letter
            "inbound",     // read, validate and schedule messages from Kafka and RabbitMQ
            "admin",       // the HTTP API over the store
            "health",      // readiness and liveness over everything below
            "config",      // settings and wiring: knows every layer
            "tools");      // command-line tools shipped with the bridge (bin/publish): the vocabulary, and config for the settings

    /**
     * The rooms of store/, bottom first, in groups: a room may depend on the rooms of the groups before its own, never on
     * another room of its own group or of a later one.
     */
    static final List<List<String>> STORE_ROOMS = List.of(
            List.of("store"),                               // the key layout and the limits every room shares
            List.of("store.connection", "store.script"),    // reaching Redis (security, Sentinel/Cluster, durability); running Lua scripts
            List.of("store.form"),                          // the stored forms of ids and payloads, read back
            List.of("store.ingest", "store.dispatch", "store.parking"), // the writers' faces: messages and controls from outside; the dispatch loop; parked targets
            List.of("store.inspection"));                   // operators' face: reads, dead-letter replay (with ingest's request) and delete

    private static JavaClasses bridge;

    @BeforeAll
    static void importBridge() {
        bridge = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(ROOT);
    }

    @Test
    void everyPackageOfTheBridgeHasALayer() {
        List<String> unlisted = bridge.stream()
                .map(JavaClass::getPackageName)
                .filter(p -> p.startsWith(ROOT + "."))
                .map(p -> p.substring(ROOT.length() + 1).split("\\.")[0])
                .distinct()
                .filter(top -> !LAYERS.contains(top))
                .toList();
        assertThat(unlisted)
                .as("packages without a place in LAYERS (add them, and to docs/ARCHITECTURE.md)")
                .isEmpty();
    }

    @Test
    void noPackageImportsFromALayerAboveIt() {
        for (int i = 0; i < LAYERS.size() - 1; i++) {
            String[] above = LAYERS.subList(i + 1, LAYERS.size()).stream().map(l -> ROOT + "." + l + "..").toArray(String[]::new);
            noClasses().that().resideInAPackage(ROOT + "." + LAYERS.get(i) + "..")
                    .should().dependOnClassesThat().resideInAnyPackage(above)
                    .because(LAYERS.get(i) + " sits below " + Arrays.toString(above))
                    .check(bridge);
        }
    }

    @Test
    void everyRoomOfTheStoreHasAPlace() {
        List<String> rooms = STORE_ROOMS.stream().flatMap(List::stream).toList();
        List<String> unlisted = bridge.stream()
                .map(JavaClass::getPackageName)
                .filter(p -> p.equals(ROOT + ".store") || p.startsWith(ROOT + ".store."))
                .map(p -> p.substring(ROOT.length() + 1))
                .distinct()
                .filter(room -> !rooms.contains(room))
                .toList();
        assertThat(unlisted)
                .as("rooms of store/ without a place in STORE_ROOMS (add them, and to docs/ARCHITECTURE.md)")
                .isEmpty();
    }

    @Test
    void noRoomOfTheStoreImportsFromItsOwnGroupOrOneAbove() {
        for (int i = 0; i < STORE_ROOMS.size(); i++) {
            for (String room : STORE_ROOMS.get(i)) {
                String[] notBelow = STORE_ROOMS.subList(i, STORE_ROOMS.size()).stream().flatMap(List::stream)
                        .filter(other -> !other.equals(room)).map(other -> ROOT + "." + other).toArray(String[]::new);
                noClasses().that().resideInAPackage(ROOT + "." + room)
                        .should().dependOnClassesThat().resideInAnyPackage(notBelow)
                        .because(room + " sits below " + Arrays.toString(notBelow))
                        .check(bridge);
            }
        }
    }

    @Test
    void messageDependsOnNoOtherPackageOfTheBridge() {
        noClasses().that().resideInAPackage(ROOT + ".message..")
                .should().dependOnClassesThat(resideInAPackage(ROOT + "..").and(not(resideInAPackage(ROOT + ".message.."))))
                .check(bridge);
    }

    @Test
    void noCycleBetweenPackages() {
        slices().matching(ROOT + ".(**)").should().beFreeOfCycles().check(bridge);
    }
}
