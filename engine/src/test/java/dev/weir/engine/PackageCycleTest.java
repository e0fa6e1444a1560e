package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The engine's packages, and the journal's, form graphs without cycles, in the flow docs/architecture.md draws
 * ({@link ModuleFlowTest} checks the modules). Dependencies are read from the sources: imports and fully qualified
 * names, comments left out.
 */
class PackageCycleTest
{
    private static final Path ENGINE = Path.of("src/main/java");
    private static final Path JOURNAL = Path.of("../journal/src/main/java");
    private static final Pattern COMMENT = Pattern.compile("/\\*.*?\\*/|//[^\\n]*", Pattern.DOTALL);
    private static final Pattern PACKAGE = Pattern.compile("^package ([a-z.]+);", Pattern.MULTILINE);

    @Test
    void theEnginePackagesHaveNoCycle()
    {
        final Map<String, Set<String>> edges = dependencies(ENGINE, "dev.weir.engine");
        assertTrue(edges.size() >= 10, "read the engine's packages: " + edges.keySet());
        final List<String> cycle = findCycle(edges);
        assertEquals(List.of(), cycle, "a package cycle; edges: " + edges);
    }

    @Test
    void theJournalPackagesHaveNoCycle()
    {
        final Map<String, Set<String>> edges = dependencies(JOURNAL, "dev.weir.journal");
        assertTrue(edges.size() >= 5, "read the journal's packages: " + edges.keySet());
        final List<String> cycle = findCycle(edges);
        assertEquals(List.of(), cycle, "a package cycle; edges: " + edges);
    }

    @Test
    void theJournalPackagesAreLayered()
    {
        // files at the bottom, then schema, codec, the journal itself, retention; each on those below it only
        final Map<String, Set<String>> edges = dependencies(JOURNAL, "dev.weir.journal");
        assertAllowed(edges, "dev.weir.journal", "files");
        assertAllowed(edges, "dev.weir.journal", "schema", "files");
        assertAllowed(edges, "dev.weir.journal", "codec", "schema", "files");
        assertAllowed(edges, "dev.weir.journal", "", "codec", "schema", "files");
        assertAllowed(edges, "dev.weir.journal", "retention", "", "codec", "schema", "files");
    }

    @Test
    void theFlowPackagesDependOnlyOnThoseBeforeThem()
    {
        final Map<String, Set<String>> edges = dependencies(ENGINE, "dev.weir.engine");
        assertAllowed(edges, "dev.weir.engine", "time");
        assertAllowed(edges, "dev.weir.engine", "window", "time");
        assertAllowed(edges, "dev.weir.engine", "resume");
        assertAllowed(edges, "dev.weir.engine", "agent");
        assertAllowed(edges, "dev.weir.engine", "expr");
        assertAllowed(edges, "dev.weir.engine", "join", "expr");
        assertAllowed(edges, "dev.weir.engine", "source", "join", "expr", "aggregate", "agent");
        assertAllowed(edges, "dev.weir.engine", "fired");
        assertAllowed(edges, "dev.weir.engine", "emit", "fired", "expr", "aggregate");
        assertAllowed(edges, "dev.weir.engine", "state", "aggregate");
        assertAllowed(edges, "dev.weir.engine", "operator", "source", "expr", "window", "time", "state", "aggregate", "emit", "fired");
        assertAllowed(edges, "dev.weir.engine", "checkpoint", "operator", "state", "emit", "window", "time", "aggregate", "source", "resume", "agent");
        assertAllowed(edges, "dev.weir.engine", "retention", "checkpoint", "source", "expr");
        assertAllowed(edges, "dev.weir.engine", "status", "", "checkpoint", "operator", "metrics");
        assertAllowed(edges, "dev.weir.engine", "delivery");
    }

    /** @param pkg and {@code allowed}: packages under {@code base}, the empty name for {@code base} itself. */
    private static void assertAllowed(final Map<String, Set<String>> edges, final String base, final String pkg, final String... allowed)
    {
        final Set<String> may = new TreeSet<>();
        for (final String each : allowed)
        {
            may.add(under(base, each));
        }
        final Set<String> actual = new TreeSet<>(edges.getOrDefault(under(base, pkg), Set.of()));
        actual.removeAll(may);
        assertEquals(Set.of(), actual, under(base, pkg) + " depends on packages after it in the flow");
    }

    private static String under(final String base, final String pkg)
    {
        return pkg.isEmpty() ? base : base + "." + pkg;
    }

    /**
     * @param root the sources of one module.
     * @param base its root package: only packages under it count.
     * @return each package to the packages under {@code base} it names (itself left out).
     */
    static Map<String, Set<String>> dependencies(final Path root, final String base)
    {
        final Pattern reference = Pattern.compile("\\b" + Pattern.quote(base) + "((?:\\.[a-z][a-z0-9]*)*)\\.[A-Z]");
        final Map<String, Set<String>> edges = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root))
        {
            files.filter(f -> f.toString().endsWith(".java")).forEach(file ->
            {
                final String text = COMMENT.matcher(read(file)).replaceAll(" ");
                final Matcher declared = PACKAGE.matcher(text);
                if (!declared.find())
                {
                    return; // a package-info with its javadoc only
                }
                final String from = declared.group(1);
                final Set<String> to = edges.computeIfAbsent(from, k -> new TreeSet<>());
                final Matcher references = reference.matcher(text.substring(declared.end()));
                while (references.find())
                {
                    final String target = base + references.group(1);
                    if (!target.equals(from))
                    {
                        to.add(target);
                    }
                }
            });
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return edges;
    }

    /**
     * @return the packages of one cycle, the first repeated at the end, or an empty list.
     */
    static List<String> findCycle(final Map<String, Set<String>> edges)
    {
        final Map<String, Integer> state = new TreeMap<>(); // absent: unvisited, 1: on the path, 2: done
        final List<String> path = new ArrayList<>();
        for (final String start : edges.keySet())
        {
            final List<String> cycle = visit(start, edges, state, path);
            if (!cycle.isEmpty())
            {
                return cycle;
            }
        }
        return List.of();
    }

    private static List<String> visit(
        final String node, final Map<String, Set<String>> edges, final Map<String, Integer> state, final List<String> path)
    {
        final Integer seen = state.get(node);
        if (seen != null)
        {
            if (seen == 1)
            {
                final List<String> cycle = new ArrayList<>(path.subList(path.indexOf(node), path.size()));
                cycle.add(node);
                return cycle;
            }
            return List.of();
        }
        state.put(node, 1);
        path.add(node);
        for (final String next : edges.getOrDefault(node, Set.of()))
        {
            final List<String> cycle = visit(next, edges, state, path);
            if (!cycle.isEmpty())
            {
                return cycle;
            }
        }
        path.remove(path.size() - 1);
        state.put(node, 2);
        return List.of();
    }

    private static String read(final Path file)
    {
        try
        {
            return Files.readString(file);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
