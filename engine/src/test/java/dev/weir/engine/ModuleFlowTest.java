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
 * The modules follow the flow docs/architecture.md draws, and reach into each other only through public packages.
 * Every module of the parent pom (its profiles included) has a place in {@link #FLOW}; a module's dependencies on
 * Weir's artifacts (its pom) and its main sources' references to Weir's packages (imports and fully qualified names,
 * comments left out) point only at modules of an earlier layer; a test kit ({@link #TEST_KITS}) is a test-scoped
 * dependency only, of any module; and main sources use only another module's public packages ({@link #PUBLIC}: its
 * root package and those listed), except the benchmarks' and test-support's ({@link #MAY_USE_INTERNALS}). Read from
 * the files, so it needs no build and checks modules the engine does not depend on.
 */
class ModuleFlowTest
{
    /** The modules in their layers, in the order of the flow: each may depend on the layers before it only. */
    private static final List<List<String>> FLOW = List.of(
        List.of("journal", "test-golden", "test-kafka"),
        List.of("engine"),
        List.of("csv", "files"),
        List.of("postgres", "kafka"),
        List.of("check", "micrometer", "test", "test-support"),
        List.of("cli"),
        List.of("examples", "benchmarks", "peers"));
    /** Weir's own test kits: a module depends on one with test scope only. */
    private static final Set<String> TEST_KITS = Set.of("test-golden", "test-kafka", "test-support");
    /** Modules without code or dependencies: the BOM's versions. */
    private static final Set<String> VERSIONS_ONLY = Set.of("bom");
    /** The packages besides its root package that other modules may use, per module; every other package is internal. */
    private static final Map<String, Set<String>> PUBLIC = Map.of(
        "journal", Set.of("dev.weir.journal.files", "dev.weir.journal.schema", "dev.weir.journal.codec",
            "dev.weir.journal.retention"),
        "engine", Set.of("dev.weir.engine.emit", "dev.weir.engine.window", "dev.weir.engine.time", "dev.weir.engine.aggregate",
            "dev.weir.engine.expr", "dev.weir.engine.delivery", "dev.weir.engine.status", "dev.weir.engine.retention",
            "dev.weir.engine.resume", "dev.weir.engine.agent", "dev.weir.engine.metrics", "dev.weir.engine.join"));
    /** Modules whose main sources may use internal packages: the benchmarks measure them, Weir's tests inspect them. */
    private static final Set<String> MAY_USE_INTERNALS = Set.of("benchmarks", "test-support");

    private static final Path ROOT = Path.of("..");
    private static final Pattern XML_COMMENT = Pattern.compile("<!--.*?-->", Pattern.DOTALL);
    private static final Pattern MODULE = Pattern.compile("<module>\\s*([^<\\s]+)\\s*</module>");
    private static final Pattern DEPENDENCY = Pattern.compile("<dependency>(.*?)</dependency>", Pattern.DOTALL);
    private static final Pattern COMMENT = Pattern.compile("/\\*.*?\\*/|//[^\\n]*", Pattern.DOTALL);
    private static final Pattern PACKAGE = Pattern.compile("^package ([a-z][a-z0-9.]*);", Pattern.MULTILINE);
    private static final Pattern REFERENCE = Pattern.compile("\\bdev\\.weir\\.((?:[a-z][a-z0-9]*\\.)*[a-z][a-z0-9]*)\\.([A-Z][A-Za-z0-9_]*|\\*)");

    @Test
    void everyModuleHasAPlaceInTheFlow()
    {
        final List<String> modules = modules();
        assertTrue(modules.size() >= 15, "read the parent pom's modules: " + modules);
        final List<String> unplaced = new ArrayList<>();
        for (final String module : modules)
        {
            if (layer(module) < 0 && !VERSIONS_ONLY.contains(module))
            {
                unplaced.add(module);
            }
        }
        assertEquals(List.of(), unplaced, "modules with no place in ModuleFlowTest.FLOW: give each its layer");
    }

    @Test
    void thePomDependenciesFollowTheFlow()
    {
        final Map<String, String> modulesByArtifact = new TreeMap<>();
        for (final String module : modules())
        {
            modulesByArtifact.put(artifactId(module), module);
        }
        final List<String> against = new ArrayList<>();
        int read = 0;
        for (final String module : modules())
        {
            for (final String[] dependency : weirDependencies(module))
            {
                read++;
                final String target = modulesByArtifact.get(dependency[0]);
                final String arrow = module + " -> " + dependency[0] + " (" + dependency[1] + ")";
                if (target == null)
                {
                    against.add(arrow + ": no module of the parent pom");
                }
                else if (TEST_KITS.contains(target) && !TEST_KITS.contains(module))
                {
                    if (!dependency[1].equals("test"))
                    {
                        against.add(arrow + ": a test kit is a test-scoped dependency only");
                    }
                }
                else if (!before(target, module))
                {
                    against.add(arrow + ": against the flow");
                }
            }
        }
        assertTrue(read >= 20, "read the modules' dependencies on Weir's artifacts: " + read);
        assertEquals(List.of(), against, "pom dependencies against the flow of ModuleFlowTest.FLOW");
    }

    @Test
    void theSourcesFollowTheFlowAndUseOnlyPublicPackages()
    {
        final Map<String, String> owners = new TreeMap<>(); // package -> the module that declares it
        final Map<String, String> roots = new TreeMap<>(); // module -> its root package
        for (final String module : modules())
        {
            for (final String pkg : references(module).keySet()) // its declared packages
            {
                owners.put(pkg, module);
                roots.merge(module, pkg, (a, b) -> a.length() <= b.length() ? a : b);
            }
        }
        final List<String> against = new ArrayList<>();
        for (final String module : modules())
        {
            for (final Map.Entry<String, Set<String>> from : references(module).entrySet())
            {
                for (final String name : from.getValue())
                {
                    final String pkg = name.substring(0, name.lastIndexOf('.'));
                    final String target = owners.get(pkg);
                    final String arrow = module + ": " + from.getKey() + " -> " + name;
                    if (target == null)
                    {
                        against.add(arrow + ": no module's package");
                    }
                    else if (target.equals(module))
                    {
                        continue;
                    }
                    else if (!before(target, module) || TEST_KITS.contains(target) && !TEST_KITS.contains(module))
                    {
                        against.add(arrow + " (" + target + "): against the flow");
                    }
                    else if (!pkg.equals(roots.get(target)) && !PUBLIC.getOrDefault(target, Set.of()).contains(pkg)
                        && !MAY_USE_INTERNALS.contains(module))
                    {
                        against.add(arrow + ": internal to " + target);
                    }
                }
            }
        }
        assertTrue(owners.size() >= 30, "read the modules' packages: " + owners.keySet());
        assertEquals(List.of(), against, "main sources against the flow, or into another module's internals (the public packages:"
            + " each module's root package and " + publicPackages() + ")");
    }

    @Test
    void everyPackageHasAPackageInfo() throws IOException
    {
        final List<String> missing = new ArrayList<>();
        for (final String module : modules())
        {
            final Path sources = ROOT.resolve(module).resolve("src/main/java");
            if (!Files.isDirectory(sources))
            {
                continue;
            }
            try (Stream<Path> files = Files.walk(sources))
            {
                files.filter(f -> f.toString().endsWith(".java")).map(Path::getParent).distinct()
                    .filter(dir -> !Files.exists(dir.resolve("package-info.java")))
                    .forEach(dir -> missing.add(module + ": " + sources.relativize(dir)));
            }
        }
        assertEquals(List.of(), missing, "packages without a package-info.java");
    }

    private static Map<String, Set<String>> publicPackages()
    {
        final Map<String, Set<String>> sorted = new TreeMap<>();
        PUBLIC.forEach((module, packages) -> sorted.put(module, new TreeSet<>(packages)));
        return sorted;
    }

    /** @return the parent pom's modules, those of its profiles included, in its order. */
    private static List<String> modules()
    {
        final List<String> modules = new ArrayList<>();
        final Matcher module = MODULE.matcher(pom(ROOT));
        while (module.find())
        {
            modules.add(module.group(1));
        }
        return modules;
    }

    /** @return the module's layer in {@link #FLOW}, or -1. */
    private static int layer(final String module)
    {
        for (int i = 0; i < FLOW.size(); i++)
        {
            if (FLOW.get(i).contains(module))
            {
                return i;
            }
        }
        return -1;
    }

    private static boolean before(final String target, final String module)
    {
        return layer(target) >= 0 && layer(target) < layer(module);
    }

    private static String artifactId(final String module)
    {
        final String pom = pom(ROOT.resolve(module));
        final Matcher artifact = Pattern.compile("<artifactId>([^<]+)</artifactId>").matcher(pom.substring(pom.indexOf("</parent>")));
        assertTrue(artifact.find(), "the artifactId of " + module);
        return artifact.group(1).strip();
    }

    /** @return the module's dependencies on Weir's artifacts (not its dependency management): artifactId and scope. */
    private static List<String[]> weirDependencies(final String module)
    {
        final String pom = pom(ROOT.resolve(module)).replaceAll("(?s)<dependencyManagement>.*?</dependencyManagement>", "");
        final List<String[]> dependencies = new ArrayList<>();
        final Matcher dependency = DEPENDENCY.matcher(pom);
        while (dependency.find())
        {
            final String text = dependency.group(1);
            if (element(text, "groupId").equals("dev.weir") || element(text, "groupId").equals("${project.groupId}"))
            {
                final String scope = element(text, "scope");
                dependencies.add(new String[] {element(text, "artifactId"), scope.isEmpty() ? "compile" : scope});
            }
        }
        return dependencies;
    }

    private static String element(final String xml, final String name)
    {
        final Matcher value = Pattern.compile("<" + name + ">([^<]*)</" + name + ">").matcher(xml);
        return value.find() ? value.group(1).strip() : "";
    }

    private static String pom(final Path directory)
    {
        return XML_COMMENT.matcher(read(directory.resolve("pom.xml"))).replaceAll(" ");
    }

    /** @return each package of the module's main sources to the classes of Weir it names (package.Class, or package.*). */
    private static Map<String, Set<String>> references(final String module)
    {
        final Map<String, Set<String>> edges = new TreeMap<>();
        final Path sources = ROOT.resolve(module).resolve("src/main/java");
        if (!Files.isDirectory(sources))
        {
            return edges;
        }
        try (Stream<Path> files = Files.walk(sources))
        {
            files.filter(f -> f.toString().endsWith(".java")).forEach(file ->
            {
                final String text = COMMENT.matcher(read(file)).replaceAll(" ");
                final Matcher declared = PACKAGE.matcher(text);
                if (declared.find())
                {
                    final Set<String> to = edges.computeIfAbsent(declared.group(1), k -> new TreeSet<>());
                    final Matcher reference = REFERENCE.matcher(text.substring(declared.end()));
                    while (reference.find())
                    {
                        to.add("dev.weir." + reference.group(1) + "." + reference.group(2));
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
