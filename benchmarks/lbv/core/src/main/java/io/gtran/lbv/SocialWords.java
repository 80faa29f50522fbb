package io.gtran.lbv;

/** The word lists the social dataset draws names and texts from. */
final class SocialWords {
    static final String[] FIRST_NAMES = {
        "Aarav", "Abdul", "Adriana", "Ahmed", "Aiko", "Alejandro", "Alexei", "Ali", "Amina", "Ana", "Andrea", "Anh",
        "Anna", "Antonio", "Arjun", "Bao", "Beatriz", "Ben", "Bilal", "Bruno", "Camila", "Carlos", "Carmen", "Chen",
        "Chinedu", "Chloe", "Daniel", "David", "Deepak", "Diego", "Dmitri", "Elena", "Emeka", "Emma", "Eva", "Farah",
        "Fatima", "Felipe", "Fernando", "Francesca", "Gabriel", "Giulia", "Hana", "Hans", "Hassan", "Helena", "Hiroshi",
        "Hugo", "Ibrahim", "Ines", "Ivan", "Jack", "Jan", "Javier", "Jin", "Jose", "Juan", "Julia", "Karim", "Kenji",
        "Klaus", "Kofi", "Lars", "Laura", "Lea", "Li", "Lin", "Lucas", "Lucia", "Luis", "Maria", "Marco", "Mario",
        "Mehmet", "Mei", "Miguel", "Mohamed", "Nadia", "Naveen", "Nikolai", "Nina", "Noah", "Olga", "Omar", "Pablo",
        "Paolo", "Pedro", "Peter", "Priya", "Rafael", "Rahul", "Ravi", "Rosa", "Sakura", "Samir", "Sara", "Sergei",
        "Sofia", "Sun", "Tariq", "Thomas", "Tran", "Umar", "Valentina", "Victor", "Wei", "Xin", "Yan", "Yang", "Yasmin",
        "Yuki", "Yusuf", "Zaid", "Zhang", "Zoe", "Zsofia"
    };
    static final String[] LAST_NAMES = {
        "Abebe", "Ahmed", "Alvarez", "Anderson", "Bakker", "Becker", "Brown", "Castro", "Chen", "Costa", "Cruz", "Das",
        "Diaz", "Dubois", "Fernandez", "Fischer", "Garcia", "Gomez", "Gonzalez", "Gupta", "Hansen", "Hernandez",
        "Hoang", "Huang", "Ivanov", "Jansen", "Johansson", "Jones", "Kang", "Khan", "Kim", "Kowalski", "Kumar",
        "Larsen", "Lee", "Lewis", "Li", "Lin", "Liu", "Lopez", "Martin", "Martinez", "Meyer", "Mohammed", "Moreau",
        "Muller", "Murphy", "Nagy", "Nguyen", "Novak", "Okafor", "Olsen", "Ortiz", "Park", "Patel", "Perez", "Petrov",
        "Pham", "Popescu", "Ramirez", "Rao", "Reyes", "Rodriguez", "Rossi", "Ruiz", "Sanchez", "Santos", "Sato",
        "Schmidt", "Schneider", "Shah", "Silva", "Singh", "Smirnov", "Smith", "Sousa", "Suzuki", "Tanaka", "Taylor",
        "Torres", "Tran", "Wagner", "Wang", "Watanabe", "Weber", "Williams", "Wilson", "Wong", "Wu", "Xu", "Yamamoto",
        "Yang", "Yilmaz", "Zhang", "Zhao", "Zhou"
    };
    static final String[] COUNTRIES = {
        "India", "China", "Germany", "United_States", "Brazil", "Indonesia", "Pakistan", "Nigeria", "Russia", "Mexico",
        "Japan", "Philippines", "Vietnam", "Egypt", "Ethiopia", "Turkey", "Iran", "France", "United_Kingdom", "Italy",
        "Spain", "Argentina", "Colombia", "Kenya", "Poland", "Canada", "Peru", "Australia", "Netherlands", "Sweden"
    };
    static final String[] BROWSERS = {"Firefox", "Chrome", "Internet Explorer", "Safari", "Opera"};
    static final String[] LANGUAGES = {"en", "es", "zh", "de", "pt", "ru", "fr", "ar", "hi", "ja"};
    private static final String[] WORDS = {
        "about", "after", "again", "album", "also", "always", "band", "because", "before", "best", "book", "city",
        "country", "day", "world", "film", "first", "friend", "game", "good", "great", "history", "home", "idea",
        "just", "know", "last", "life", "like", "little", "long", "love", "made", "many", "more", "music", "never",
        "new", "night", "old", "only", "other", "people", "place", "play", "really", "right", "said", "should",
        "song", "still", "story", "team", "think", "time", "today", "very", "want", "war", "well", "work", "year"
    };

    private SocialWords() {
    }

    /** {@code min..max} words. */
    static String sentence(SplitMix64 r, int min, int max) {
        int words = min + r.nextInt(max - min + 1);
        StringBuilder b = new StringBuilder(words * 6);
        for (int w = 0; w < words; w++) {
            if (w > 0) {
                b.append(' ');
            }
            b.append(r.pick(WORDS));
        }
        return b.toString();
    }
}
