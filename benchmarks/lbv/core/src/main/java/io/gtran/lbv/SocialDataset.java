package io.gtran.lbv;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An LDBC-SNB-like social network, scaled by its person count {@code P} so the edge count lands
 * within a hundred edges of the target (about 93 edges a person).
 *
 * <p>Vertices, in id order: places (countries, then cities; label {@code place}, {@code type}
 * country|city), organisations (universities, then companies; label {@code organisation},
 * {@code type} university|company), {@code P} persons, {@code 8P} posts, {@code 16P} comments.
 * Edges, in id order: city {@code isPartOf} country; university {@code isLocatedIn} city and
 * company {@code isLocatedIn} country; person {@code isLocatedIn} city; {@code studyAt} (4 persons
 * in 5) with {@code classYear}; {@code workAt} (person {@code i} at {@code i mod 3} companies) with
 * {@code workFrom}; {@code 10P} distinct {@code knows} pairs with {@code creationDate}; per post
 * {@code hasCreator} and {@code isLocatedIn} country; per comment {@code hasCreator},
 * {@code replyOf} (an earlier post or comment) and {@code isLocatedIn}; {@code 16P} distinct
 * {@code likes} with {@code creationDate}.
 *
 * <p>Heavy tails: the ends of knows, the creators of messages and the likers are drawn by
 * {@link PowerLaw} over persons (one popularity order, so popular people also post and like
 * more), liked messages by another {@link PowerLaw}, cities and countries too. Every element's
 * properties are a function of (seed, id), so they need no memory; only the knows and likes
 * duplicate checks hold state (16 bytes an edge while generating).
 */
final class SocialDataset implements Dataset {
    static final String NAME = "social";

    private static final long DAY = 86_400_000L;
    private static final long YEAR = 365 * DAY;
    /** 2010-01-01: persons join during 2010, messages are written in 2011 and 2012. */
    private static final long PERSON_START = 1_262_304_000_000L;
    private static final long MESSAGE_START = PERSON_START + YEAR;
    private static final long MESSAGE_SPAN = 2 * YEAR;
    /** 1950-01-01 .. 2000-01-01. */
    private static final long BIRTHDAY_START = -631_152_000_000L;
    private static final long BIRTHDAY_SPAN = 50 * YEAR;

    private static final long SALT_POPULARITY = 1, SALT_CITY_POPULARITY = 2, SALT_COUNTRY_POPULARITY = 3,
            SALT_MESSAGE_POPULARITY = 4, SALT_PERSON = 5, SALT_PERSON_CITY = 6, SALT_PERSON_DATE = 7,
            SALT_BIRTHDAY = 8, SALT_CITY_COUNTRY = 9, SALT_ORG_PLACE = 10, SALT_POST = 11, SALT_COMMENT = 12,
            SALT_POST_CREATOR = 13, SALT_COMMENT_CREATOR = 14, SALT_PARENT = 15, SALT_MESSAGE_COUNTRY = 16,
            SALT_STUDY = 17, SALT_WORK = 18, SALT_KNOWS = 19, SALT_LIKES = 20, SALT_PLACE = 21;

    private static final List<String> VERTEX_LABELS = List.of("place", "organisation", "person", "post", "comment");
    private static final List<String> EDGE_LABELS =
            List.of("isPartOf", "isLocatedIn", "studyAt", "workAt", "knows", "hasCreator", "replyOf", "likes");
    private static final List<String> VERTEX_KEYS = List.of("ori_id", "name", "type", "firstName", "lastName", "gender",
            "birthday", "creationDate", "locationIP", "browserUsed", "imageFile", "language", "content", "length");
    private static final List<String> EDGE_KEYS = List.of("classYear", "workFrom", "creationDate");

    private final long seed;
    private final long targetEdges;
    private final SocialSizes sizes;
    private final DatasetInfo info;
    private final PowerLaw popularity;
    private final PowerLaw cityPopularity;
    private final PowerLaw countryPopularity;
    private final PowerLaw messagePopularity;

    SocialDataset(long targetEdges, long seed) {
        this.seed = seed;
        this.targetEdges = targetEdges;
        this.sizes = SocialSizes.forEdges(targetEdges);
        this.popularity = new PowerLaw(sizes.persons(), SplitMix64.hash(seed, SALT_POPULARITY));
        this.cityPopularity = new PowerLaw(sizes.cities(), SplitMix64.hash(seed, SALT_CITY_POPULARITY));
        this.countryPopularity = new PowerLaw(sizes.countries(), SplitMix64.hash(seed, SALT_COUNTRY_POPULARITY));
        this.messagePopularity = new PowerLaw(sizes.posts() + sizes.comments(), SplitMix64.hash(seed, SALT_MESSAGE_POPULARITY));
        this.info = new DatasetInfo(NAME + "-e" + targetEdges + "-s" + seed, sizes.vertices(), sizes.edges(),
                VERTEX_LABELS, EDGE_LABELS, List.of("ori_id", "firstName"), List.of("creationDate"),
                VERTEX_KEYS, EDGE_KEYS, "ori_id");
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public DatasetInfo info() {
        return info;
    }

    SocialSizes sizes() {
        return sizes;
    }

    @Override
    public String toString() {
        return "SocialDataset[targetEdges=" + targetEdges + ", seed=" + seed + ", " + sizes + "]";
    }

    @Override
    public void generate(GraphSink sink) {
        SocialSizes s = sizes;
        for (long c = 0; c < s.countries(); c++) {
            sink.vertex(s.countryId(c), "place", place(s.countryId(c), countryName(c), "country"));
        }
        for (long c = 0; c < s.cities(); c++) {
            sink.vertex(s.cityId(c), "place", place(s.cityId(c), countryName(cityCountry(c)) + " City " + c, "city"));
        }
        for (long u = 0; u < s.universities(); u++) {
            sink.vertex(s.universityId(u), "organisation", place(s.universityId(u), "University_" + u, "university"));
        }
        for (long k = 0; k < s.companies(); k++) {
            sink.vertex(s.companyId(k), "organisation", place(s.companyId(k), "Company_" + k, "company"));
        }
        for (long p = 0; p < s.persons(); p++) {
            sink.vertex(s.personId(p), "person", person(p));
        }
        for (long i = 0; i < s.posts(); i++) {
            sink.vertex(s.postId(i), "post", post(i));
        }
        for (long j = 0; j < s.comments(); j++) {
            sink.vertex(s.commentId(j), "comment", comment(j));
        }
        new SocialEdges(sink).emit();
    }

    // ---- vertices: every property a function of (seed, id) --------------------------------------

    private Map<String, Object> place(long id, String name, String type) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("ori_id", Datasets.oriId(seed, id));
        p.put("name", name);
        p.put("type", type);
        return p;
    }

    private Map<String, Object> person(long p) {
        SplitMix64 r = SplitMix64.of(seed, SALT_PERSON, p);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("ori_id", Datasets.oriId(seed, sizes.personId(p)));
        m.put("firstName", r.pick(SocialWords.FIRST_NAMES));
        m.put("lastName", r.pick(SocialWords.LAST_NAMES));
        m.put("gender", r.chance(0.5) ? "male" : "female");
        m.put("birthday", personBirthday(p));
        m.put("creationDate", personDate(p));
        m.put("locationIP", ip(r));
        m.put("browserUsed", r.pick(SocialWords.BROWSERS));
        return m;
    }

    private Map<String, Object> post(long i) {
        SplitMix64 r = SplitMix64.of(seed, SALT_POST, i);
        long id = sizes.postId(i);
        boolean image = r.chance(0.3);
        String content = image ? "" : SocialWords.sentence(r, 3, 40);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("ori_id", Datasets.oriId(seed, id));
        m.put("imageFile", image ? "photo" + id + ".jpg" : "");
        m.put("creationDate", postDate(i));
        m.put("locationIP", ip(r));
        m.put("browserUsed", r.pick(SocialWords.BROWSERS));
        m.put("language", r.pick(SocialWords.LANGUAGES));
        m.put("content", content);
        m.put("length", content.length());
        return m;
    }

    private Map<String, Object> comment(long j) {
        SplitMix64 r = SplitMix64.of(seed, SALT_COMMENT, j);
        String content = SocialWords.sentence(r, 1, 25);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("ori_id", Datasets.oriId(seed, sizes.commentId(j)));
        m.put("creationDate", commentDate(j));
        m.put("locationIP", ip(r));
        m.put("browserUsed", r.pick(SocialWords.BROWSERS));
        m.put("content", content);
        m.put("length", content.length());
        return m;
    }

    private static String ip(SplitMix64 r) {
        return (1 + r.nextInt(223)) + "." + r.nextInt(256) + "." + r.nextInt(256) + "." + (1 + r.nextInt(254));
    }

    private static String countryName(long c) {
        int n = SocialWords.COUNTRIES.length;
        return c < n ? SocialWords.COUNTRIES[(int) c] : SocialWords.COUNTRIES[(int) (c % n)] + "-" + (c / n);
    }

    // ---- derived facts the edges need, recomputed rather than stored ----------------------------

    long cityCountry(long city) {
        return countryPopularity.draw(Datasets.unit(seed, SALT_CITY_COUNTRY, city));
    }

    long personCity(long p) {
        return cityPopularity.draw(Datasets.unit(seed, SALT_PERSON_CITY, p));
    }

    long personDate(long p) {
        return PERSON_START + Math.floorMod(SplitMix64.hash(seed, SALT_PERSON_DATE, p), YEAR);
    }

    long personBirthday(long p) {
        return BIRTHDAY_START + Math.floorMod(SplitMix64.hash(seed, SALT_BIRTHDAY, p), BIRTHDAY_SPAN);
    }

    long postCreator(long i) {
        return popularity.draw(Datasets.unit(seed, SALT_POST_CREATOR, i));
    }

    long commentCreator(long j) {
        return popularity.draw(Datasets.unit(seed, SALT_COMMENT_CREATOR, j));
    }

    /**
     * Post {@code i} is written in the {@code i}-th of {@code posts} equal slots of the message span
     * (exact integer arithmetic, good to about 140 million messages).
     */
    long postDate(long i) {
        long posts = sizes.posts();
        return MESSAGE_START + i * MESSAGE_SPAN / posts
                + Math.floorMod(SplitMix64.hash(seed, SALT_POST, i, 1), MESSAGE_SPAN / posts);
    }

    /**
     * Comment {@code j} is written in its slot shifted by one post slot (and 2 ms for rounding), so
     * it is later than every post and comment {@link #commentParent} may give it: no chain of
     * dates to follow.
     */
    long commentDate(long j) {
        long comments = sizes.comments();
        return MESSAGE_START + MESSAGE_SPAN / sizes.posts() + 2 + j * MESSAGE_SPAN / comments
                + Math.floorMod(SplitMix64.hash(seed, SALT_COMMENT, j, 1), MESSAGE_SPAN / comments);
    }

    /**
     * The vertex id comment {@code j} replies to: half the time (and always for the first comments)
     * a post written before it, otherwise an earlier comment.
     */
    long commentParent(long j) {
        long h = SplitMix64.hash(seed, SALT_PARENT, j);
        long postsBefore = Math.min(sizes.posts(), j * sizes.posts() / sizes.comments() + 1);
        if (j == 0 || (h & 1) == 0) {
            return sizes.postId(Math.floorMod(h >>> 1, postsBefore));
        }
        return sizes.commentId(Math.floorMod(h >>> 1, j));
    }

    long messageDate(long vertexId) {
        return vertexId < sizes.commentId(0) ? postDate(vertexId - sizes.postId(0)) : commentDate(vertexId - sizes.commentId(0));
    }

    /** Mostly the country of the creator's city, sometimes another (travel). */
    long messageCountry(long creator, long salt, long index) {
        long h = SplitMix64.hash(seed, SALT_MESSAGE_COUNTRY, salt, index);
        if (Math.floorMod(h, 5) != 0) {
            return sizes.countryId(cityCountry(personCity(creator)));
        }
        return sizes.countryId(Math.floorMod(h >>> 8, sizes.countries()));
    }

    private static int year(long millis) {
        return Instant.ofEpochMilli(millis).atZone(ZoneOffset.UTC).getYear();
    }

    /** Emits the edges in the order the class comment gives, numbering them as it goes. */
    private final class SocialEdges {
        private final GraphSink sink;
        private final SocialSizes s = sizes;
        private long next;

        SocialEdges(GraphSink sink) {
            this.sink = sink;
        }

        void emit() {
            for (long c = 0; c < s.cities(); c++) {
                edge(s.cityId(c), s.countryId(cityCountry(c)), "isPartOf", null, null);
            }
            for (long u = 0; u < s.universities(); u++) {
                long city = Math.floorMod(SplitMix64.hash(seed, SALT_ORG_PLACE, u), s.cities());
                edge(s.universityId(u), s.cityId(city), "isLocatedIn", null, null);
            }
            for (long k = 0; k < s.companies(); k++) {
                long country = Math.floorMod(SplitMix64.hash(seed, SALT_ORG_PLACE, -1 - k), s.countries());
                edge(s.companyId(k), s.countryId(country), "isLocatedIn", null, null);
            }
            for (long p = 0; p < s.persons(); p++) {
                edge(s.personId(p), s.cityId(personCity(p)), "isLocatedIn", null, null);
            }
            for (long p = 0; p < s.persons(); p++) {
                if (p % 5 != 0) {
                    SplitMix64 r = SplitMix64.of(seed, SALT_STUDY, p);
                    int classYear = year(personBirthday(p)) + 18 + r.nextInt(8);
                    edge(s.personId(p), s.universityId(r.nextLong(s.universities())), "studyAt", "classYear", classYear);
                }
            }
            for (long p = 0; p < s.persons(); p++) {
                SplitMix64 r = SplitMix64.of(seed, SALT_WORK, p);
                long first = r.nextLong(s.companies());
                for (int w = 0; w < p % 3; w++) {
                    long company = Math.floorMod(first + w * (1 + r.nextLong(s.companies() - 1)), s.companies());
                    int workFrom = year(personDate(p)) - r.nextInt(12);
                    edge(s.personId(p), s.companyId(company), "workAt", "workFrom", workFrom);
                }
            }
            knows();
            for (long i = 0; i < s.posts(); i++) {
                long creator = postCreator(i);
                edge(s.postId(i), s.personId(creator), "hasCreator", null, null);
                edge(s.postId(i), messageCountry(creator, 0, i), "isLocatedIn", null, null);
            }
            for (long j = 0; j < s.comments(); j++) {
                long creator = commentCreator(j);
                edge(s.commentId(j), s.personId(creator), "hasCreator", null, null);
                edge(s.commentId(j), commentParent(j), "replyOf", null, null);
                edge(s.commentId(j), messageCountry(creator, 1, j), "isLocatedIn", null, null);
            }
            likes();
            if (next != s.edges()) {
                throw new IllegalStateException("emitted=" + next + " but sizes.edges=" + s.edges());
            }
        }

        /** Distinct unordered pairs of distinct persons; the first drawn is the out-vertex. */
        private void knows() {
            SplitMix64 r = SplitMix64.of(seed, SALT_KNOWS);
            LongSet seen = new LongSet((int) s.knows());
            long persons = s.persons();
            for (long n = 0; n < s.knows(); n++) {
                long a, b;
                int attempts = 0;
                do {
                    boolean skewed = attempts++ < 1000;
                    a = skewed ? popularity.draw(r) : r.nextLong(persons);
                    b = skewed ? popularity.draw(r) : r.nextLong(persons);
                } while (a == b || !seen.add(Math.min(a, b) * persons + Math.max(a, b)));
                long date = Math.max(personDate(a), personDate(b)) + r.nextLong(YEAR);
                edge(s.personId(a), s.personId(b), "knows", "creationDate", date);
            }
        }

        /** Distinct (person, message) pairs, both ends heavy-tailed. */
        private void likes() {
            SplitMix64 r = SplitMix64.of(seed, SALT_LIKES);
            long messages = s.posts() + s.comments();
            LongSet seen = new LongSet((int) s.likes());
            for (long n = 0; n < s.likes(); n++) {
                long p, m;
                int attempts = 0;
                do {
                    boolean skewed = attempts++ < 1000;
                    p = skewed ? popularity.draw(r) : r.nextLong(s.persons());
                    m = skewed ? messagePopularity.draw(r) : r.nextLong(messages);
                } while (!seen.add(p * messages + m));
                long message = s.postId(0) + m;
                edge(s.personId(p), message, "likes", "creationDate", messageDate(message) + r.nextLong(30 * DAY));
            }
        }

        private void edge(long out, long in, String label, String key, Object value) {
            Map<String, Object> properties = new LinkedHashMap<>(2);
            if (key != null) {
                properties.put(key, value);
            }
            sink.edge(next++, out, in, label, properties);
        }
    }
}
