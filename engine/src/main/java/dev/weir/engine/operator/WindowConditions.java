package dev.weir.engine.operator;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import dev.weir.engine.aggregate.BoundAggregates;
import dev.weir.engine.expr.Comparisons;
import dev.weir.engine.expr.ExpressionColumns;
import dev.weir.journal.schema.ColumnType;
import dev.weir.journal.schema.JournalSchema;

/**
 * Reads an early condition from text. Grammar (keywords case-insensitive, spaces anywhere between tokens):
 * <pre>
 *   condition  := conjunction ( "or" conjunction )*
 *   conjunction:= primary ( "and" primary )*
 *   primary    := "(" condition ")" | field op ( number | column )
 *   field      := count | sum | min | max | aggregate | aggregate1 .. aggregateN
 *   op         := &lt; | &lt;= | &gt; | &gt;= | = | !=
 *   number     := [-] digits [ "." digits ]
 *   column     := a long or decimal column: an event column or a joined table's TABLE.COLUMN (case-sensitive;
 *                 only when parsed with the pipeline's {@link ExpressionColumns})
 * </pre>
 * {@code aggregate} is the first user aggregation's result, {@code aggregateI} the I-th (1-based).
 * Numbers compared with {@code sum}, {@code min} and {@code max} are in the value column's unit: on a
 * {@code decimal(S)} column {@code 5000.00} and {@code 5000} both mean 5000 (the unscaled {@code 5000 * 10^S});
 * more than S fraction digits is an error. Numbers compared with {@code count} or an aggregate are whole.
 * A column is the value of the event being added (with its joined rows), read through
 * {@link WindowView#column(int)}; it compares exactly with the field, whatever their scales (the field's
 * scale is the value's for {@code sum}, {@code min}, {@code max}, else 0). {@link WindowCondition#columns()}
 * names the columns the condition reads, which the engine copies into each event's ring slot.
 * <p>
 * With named aggregates ({@link #parse(String, BoundAggregates, ExpressionColumns)}), a field is a named aggregate's
 * name, or {@code count} (the window's events) when no aggregate has that name; {@code sum}, {@code min},
 * {@code max} and {@code aggregate} are refused (the pipeline has no value of its own). A number is taken at the
 * aggregate's scale, and a comparison of an aggregate the window has no value for is false.
 * <p>
 * The parsed condition allocates nothing when tested; its {@link WindowCondition#name()} is the normalised
 * text (lower case, single spaces around {@code and}/{@code or}, no spaces around operators, numbers in
 * the value's unit), which is what a checkpoint's configuration records.
 * Stateless; thread-safe.
 */
public final class WindowConditions
{
    private WindowConditions()
    {
    }

    /**
     * @param text         the condition.
     * @param valueScale   the value column's decimal scale, 0 for a long column.
     * @param aggregations how many user aggregations the pipeline has (for {@code aggregateI}).
     * @return the condition.
     * @throws ConditionSyntaxException if the text does not follow the grammar or names a missing aggregate.
     */
    public static WindowCondition parse(final String text, final int valueScale, final int aggregations)
    {
        return parse(text, valueScale, aggregations, null);
    }

    /**
     * @param text         the condition.
     * @param valueScale   the value column's decimal scale, 0 for a long column.
     * @param aggregations how many user aggregations the pipeline has (for {@code aggregateI}).
     * @param columns      the columns a comparison may name on its right (the event's, then joined tables'), or
     *                     null: numbers only.
     * @return the condition; its {@link WindowCondition#columns()} are the columns it names.
     * @throws ConditionSyntaxException if the text does not follow the grammar, names a missing aggregate, or names
     *                                  an unknown or string column.
     */
    public static WindowCondition parse(final String text, final int valueScale, final int aggregations, final ExpressionColumns columns)
    {
        return parse(new Parser(text, valueScale, aggregations, columns, null));
    }

    /**
     * @param text    the condition, over named aggregates: {@code declines>=3 and approved>1000.00}.
     * @param named   the pipeline's named aggregates, or null for a pipeline without them (then as
     *                {@link #parse(String, int, int, ExpressionColumns)} of a long value without user aggregations).
     * @param columns the columns a comparison may name on its right (the event's, then joined tables'), or null:
     *                numbers only.
     * @return the condition; its {@link WindowCondition#columns()} are the columns it names.
     * @throws ConditionSyntaxException if the text does not follow the grammar, names no aggregate, names
     *                                  {@code sum}, {@code min}, {@code max} or {@code aggregate}, has a number with
     *                                  more fraction digits than its aggregate's scale, or names an unknown or string
     *                                  column.
     */
    public static WindowCondition parse(final String text, final BoundAggregates named, final ExpressionColumns columns)
    {
        return parse(new Parser(text, 0, 0, columns, named));
    }

    private static WindowCondition parse(final Parser parser)
    {
        final String text = parser.text;
        final Node node = parser.condition();
        parser.skipSpaces();
        if (parser.at < text.length())
        {
            throw parser.error("expected 'and', 'or' or the end");
        }
        return parser.named.length == 0 ? node : new Reading(node, parser.named);
    }

    /** The root of a condition that names columns: tells which. */
    private static final class Reading extends Node
    {
        private final Node condition;
        private final int[] columns;

        Reading(final Node condition, final int[] columns)
        {
            this.condition = condition;
            this.columns = columns;
        }

        @Override
        public boolean test(final WindowView window)
        {
            return condition.test(window);
        }

        @Override
        public int[] columns()
        {
            return columns.clone();
        }

        @Override
        String render(final boolean nested)
        {
            return condition.render(nested);
        }
    }

    /** A parsed condition, or a part of one. */
    private abstract static class Node implements WindowCondition
    {
        abstract String render(boolean nested);

        @Override
        public final String name()
        {
            return render(false);
        }

        @Override
        public final String toString()
        {
            return name();
        }
    }

    private static final int COUNT = 0;
    private static final int SUM = 1;
    private static final int MIN = 2;
    private static final int MAX = 3;
    private static final int AGGREGATE = 4;
    /** A named aggregate's value: its comparison is false while the window has none. */
    private static final int NAMED = 5;

    private static final int LT = Comparisons.LT;
    private static final int LE = Comparisons.LE;
    private static final int GT = Comparisons.GT;
    private static final int GE = Comparisons.GE;
    private static final int EQ = Comparisons.EQ;
    private static final int NE = Comparisons.NE;
    private static final String[] OPERATORS = {"<", "<=", ">", ">=", "=", "!="};

    private static final class Comparison extends Node
    {
        private final int field;
        private final int aggregate;
        private final int operator;
        private final long threshold;
        private final String fieldText;
        private final String numberText;

        Comparison(final int field, final int aggregate, final int operator, final long threshold, final String fieldText, final String numberText)
        {
            this.field = field;
            this.aggregate = aggregate;
            this.operator = operator;
            this.threshold = threshold;
            this.fieldText = fieldText;
            this.numberText = numberText;
        }

        @Override
        public boolean test(final WindowView window)
        {
            return hasValue(window, field, aggregate) && Comparisons.holds(operator, Long.compare(fieldValue(window, field, aggregate), threshold));
        }

        @Override
        String render(final boolean nested)
        {
            return fieldText + OPERATORS[operator] + numberText;
        }
    }

    /**
     * {@code field op column}: the field against a long or decimal column of the event being added, exactly (the
     * one of smaller scale is multiplied by {@code factor} without overflow).
     */
    private static final class ColumnComparison extends Node
    {
        private final int field;
        private final int aggregate;
        private final int operator;
        private final int column;
        private final long factor;
        private final boolean rescaleField;
        private final String fieldText;
        private final String columnName;

        ColumnComparison(final int field, final int aggregate, final int operator, final int column, final int fieldScale,
            final int columnScale, final String fieldText, final String columnName)
        {
            this.field = field;
            this.aggregate = aggregate;
            this.operator = operator;
            this.column = column;
            this.rescaleField = fieldScale < columnScale;
            this.factor = BigDecimal.TEN.pow(Math.abs(fieldScale - columnScale)).longValueExact();
            this.fieldText = fieldText;
            this.columnName = columnName;
        }

        @Override
        public boolean test(final WindowView window)
        {
            if (!hasValue(window, field, aggregate))
            {
                return false;
            }
            final long v = fieldValue(window, field, aggregate);
            final long c = window.column(column);
            return Comparisons.holds(operator, rescaleField ? Comparisons.compareScaled(v, factor, c) : -Comparisons.compareScaled(c, factor, v));
        }

        @Override
        String render(final boolean nested)
        {
            return fieldText + OPERATORS[operator] + columnName;
        }
    }

    /** @return false for a named aggregate the window has no value for: its comparisons are false. */
    private static boolean hasValue(final WindowView window, final int field, final int aggregate)
    {
        return field != NAMED || window.hasAggregate(aggregate);
    }

    private static long fieldValue(final WindowView window, final int field, final int aggregate)
    {
        return switch (field)
        {
            case COUNT -> window.count();
            case SUM -> window.sum();
            case MIN -> window.min();
            case MAX -> window.max();
            default -> window.aggregate(aggregate);
        };
    }

    private static final class Junction extends Node
    {
        private final boolean and;
        private final Node left;
        private final Node right;

        Junction(final boolean and, final Node left, final Node right)
        {
            this.and = and;
            this.left = left;
            this.right = right;
        }

        @Override
        public boolean test(final WindowView window)
        {
            return and ? left.test(window) && right.test(window) : left.test(window) || right.test(window);
        }

        @Override
        String render(final boolean nested)
        {
            // an 'or' inside an 'and' needs parentheses; everything else reads as written
            final String text = left.render(and) + (and ? " and " : " or ") + right.render(and);
            return nested && !and ? "(" + text + ")" : text;
        }
    }

    /** Recursive descent over the text; {@link #at} is the 0-based index of the next character. */
    private static final class Parser
    {
        final String text;
        private final int valueScale;
        private final int aggregations;
        /** The named aggregates a field names, or null. */
        private final BoundAggregates aggregates;
        /** What a comparison may name on its right, or null (numbers only). */
        private final ExpressionColumns columns;
        /** The columns named so far, ascending, no repeats. */
        int[] named = new int[0];
        private int at;

        Parser(final String text, final int valueScale, final int aggregations, final ExpressionColumns columns, final BoundAggregates named)
        {
            this.text = text;
            this.aggregates = named;
            this.valueScale = valueScale;
            this.aggregations = aggregations;
            this.columns = columns;
        }

        Node condition()
        {
            Node node = conjunction();
            while (keyword("or"))
            {
                node = new Junction(false, node, conjunction());
            }
            return node;
        }

        private Node conjunction()
        {
            Node node = primary();
            while (keyword("and"))
            {
                node = new Junction(true, node, primary());
            }
            return node;
        }

        private Node primary()
        {
            skipSpaces();
            if (at < text.length() && text.charAt(at) == '(')
            {
                at++;
                final Node inner = condition();
                skipSpaces();
                if (at >= text.length() || text.charAt(at) != ')')
                {
                    throw error("expected ')'");
                }
                at++;
                return inner;
            }
            return comparison();
        }

        private Node comparison()
        {
            skipSpaces();
            final int fieldAt = at;
            final String word = word();
            if (aggregates != null)
            {
                return named(fieldAt, word);
            }
            final int field;
            int aggregate = 0;
            switch (word)
            {
                case "count" -> field = COUNT;
                case "sum" -> field = SUM;
                case "min" -> field = MIN;
                case "max" -> field = MAX;
                case "" -> throw error("expected count, sum, min, max or aggregate");
                default ->
                {
                    if (!word.startsWith("aggregate"))
                    {
                        at = fieldAt;
                        throw error("unknown field '" + word + "': expected count, sum, min, max or aggregate");
                    }
                    final String index = word.substring("aggregate".length());
                    aggregate = index.isEmpty() ? 0 : parseIndex(index, fieldAt);
                    if (aggregate < 0 || aggregate >= aggregations)
                    {
                        at = fieldAt;
                        throw error(aggregations == 0 ? "the pipeline has no user aggregation"
                            : "'" + word + "': the pipeline has " + aggregations + " aggregation" + (aggregations == 1 ? "" : "s"));
                    }
                    field = AGGREGATE;
                }
            }
            final int scale = field == SUM || field == MIN || field == MAX ? valueScale : 0;
            final String fieldText = field == AGGREGATE ? (aggregate == 0 ? "aggregate" : "aggregate" + (aggregate + 1)) : word;
            return compared(field, aggregate, scale, fieldText);
        }

        /** A comparison whose field is {@code word}, read at {@code fieldAt}, under named aggregates. */
        private Node named(final int fieldAt, final String word)
        {
            for (int i = 0; i < aggregates.size(); i++)
            {
                if (aggregates.name(i).equals(word))
                {
                    return compared(NAMED, i, aggregates.scale(i), word);
                }
            }
            if (word.equals("count"))
            {
                return compared(COUNT, 0, 0, word);
            }
            at = fieldAt;
            if (word.equals("sum") || word.equals("min") || word.equals("max") || word.startsWith("aggregate"))
            {
                throw error("no " + word + " with --aggregates: name one, e.g. total=sum(amount)");
            }
            throw error((word.isEmpty() ? "expected" : "unknown aggregate '" + word + "': expected") + " count or one of "
                + String.join(", ", names()));
        }

        private List<String> names()
        {
            final List<String> names = new ArrayList<>();
            for (int i = 0; i < aggregates.size(); i++)
            {
                names.add(aggregates.name(i));
            }
            return names;
        }

        /** The operator and right side of a comparison of {@code field}, whose numbers are at {@code scale}. */
        private Node compared(final int field, final int aggregate, final int scale, final String fieldText)
        {
            skipSpaces();
            final int operator = operator();
            skipSpaces();
            if (columns != null && at < text.length() && isNameStart(text.charAt(at)))
            {
                final int column = column();
                return new ColumnComparison(field, aggregate, operator, column, scale, columns.column(column).scale(), fieldText,
                    columns.name(column));
            }
            final int numberAt = at;
            final String number = number();
            final long threshold;
            try
            {
                threshold = new BigDecimal(number).setScale(scale).unscaledValue().longValueExact();
            }
            catch (final ArithmeticException ex)
            {
                at = numberAt;
                throw error(scale == 0 ? "'" + number + "' is not a whole number in range" : "'" + number + "' has more than " + scale
                    + " decimals or is out of range");
            }
            return new Comparison(field, aggregate, operator, threshold, fieldText, BigDecimal.valueOf(threshold, scale).toPlainString());
        }

        /** @return the index of the long or decimal column named at {@link #at}, noted in {@link #named}. */
        private int column()
        {
            final int start = at;
            while (at < text.length() && (isNameStart(text.charAt(at)) || Character.isDigit(text.charAt(at))))
            {
                at++;
            }
            if (at + 1 < text.length() && text.charAt(at) == '.' && isNameStart(text.charAt(at + 1)))
            {
                at++; // TABLE.COLUMN
                while (at < text.length() && (isNameStart(text.charAt(at)) || Character.isDigit(text.charAt(at))))
                {
                    at++;
                }
            }
            final String name = text.substring(start, at);
            final int column = columns.indexOf(name);
            if (column < 0 || columns.column(column).type() == ColumnType.STRING)
            {
                final StringBuilder numeric = new StringBuilder();
                for (int i = 0; i < columns.size(); i++)
                {
                    if (columns.column(i).type() != ColumnType.STRING)
                    {
                        numeric.append(", ").append(columns.name(i));
                    }
                }
                at = start;
                throw error((column < 0 ? "unknown column '" + name + "'" : "'" + name + "' is a string column")
                    + ": expected a number" + (numeric.length() == 0 ? "" : " or one of" + numeric.substring(1)));
            }
            if (Arrays.binarySearch(named, column) < 0)
            {
                named = Arrays.copyOf(named, named.length + 1);
                named[named.length - 1] = column;
                Arrays.sort(named);
            }
            return column;
        }

        private static boolean isNameStart(final char c)
        {
            return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
        }

        private int parseIndex(final String index, final int fieldAt)
        {
            try
            {
                return Integer.parseInt(index) - 1;
            }
            catch (final NumberFormatException ex)
            {
                at = fieldAt;
                throw error("unknown field 'aggregate" + index + "'");
            }
        }

        private int operator()
        {
            if (at >= text.length())
            {
                throw error("expected an operator: < <= > >= = !=");
            }
            final char c = text.charAt(at);
            final boolean equals = at + 1 < text.length() && text.charAt(at + 1) == '=';
            switch (c)
            {
                case '<':
                    at += equals ? 2 : 1;
                    return equals ? LE : LT;
                case '>':
                    at += equals ? 2 : 1;
                    return equals ? GE : GT;
                case '=':
                    at += equals ? 2 : 1; // '=' or '=='
                    return EQ;
                case '!':
                    if (equals)
                    {
                        at += 2;
                        return NE;
                    }
                    break;
                default:
                    break;
            }
            throw error("expected an operator: < <= > >= = !=");
        }

        private String number()
        {
            final int start = at;
            if (at < text.length() && text.charAt(at) == '-')
            {
                at++;
            }
            final int digits = at;
            while (at < text.length() && Character.isDigit(text.charAt(at)))
            {
                at++;
            }
            if (at == digits)
            {
                at = start;
                throw error("expected a number");
            }
            if (at < text.length() && text.charAt(at) == '.')
            {
                at++;
                final int fraction = at;
                while (at < text.length() && Character.isDigit(text.charAt(at)))
                {
                    at++;
                }
                if (at == fraction)
                {
                    throw error("expected digits after '.'");
                }
            }
            return text.substring(start, at);
        }

        private String word()
        {
            final int start = at;
            while (at < text.length() && (Character.isLetterOrDigit(text.charAt(at)) || text.charAt(at) == '_'))
            {
                at++;
            }
            return text.substring(start, at).toLowerCase(Locale.ROOT);
        }

        /** Consume {@code keyword} if it is the next word (followed by a non-letter). */
        private boolean keyword(final String keyword)
        {
            skipSpaces();
            final int end = at + keyword.length();
            if (end <= text.length() && text.regionMatches(true, at, keyword, 0, keyword.length())
                && (end == text.length() || !Character.isLetterOrDigit(text.charAt(end))))
            {
                at = end;
                return true;
            }
            return false;
        }

        void skipSpaces()
        {
            while (at < text.length() && Character.isWhitespace(text.charAt(at)))
            {
                at++;
            }
        }

        ConditionSyntaxException error(final String problem)
        {
            return new ConditionSyntaxException(text, at + 1, problem);
        }
    }
}
