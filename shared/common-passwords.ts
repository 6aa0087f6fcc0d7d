/** The most common passwords of at least six characters, refused at sign-up and on change. */
export const COMMON_PASSWORDS = new Set([
  "123456", "password", "12345678", "qwerty", "123456789", "12345", "111111", "1234567", "sunshine",
  "qwerty123", "iloveyou", "princess", "admin123", "welcome", "666666", "abc123", "football", "123123",
  "monkey", "654321", "charlie", "aa123456", "donald", "password1", "1234567890", "000000", "dragon",
  "baseball", "master", "letmein", "shadow", "superman", "michael", "login", "starwars", "trustno1",
  "passw0rd", "zaq12wsx", "pakistan", "pakistan123", "pakistan1", "karachi", "lahore", "islamabad",
  "qwertyuiop", "1q2w3e4r", "1qaz2wsx", "asdfgh", "asdfghjkl", "987654321", "112233", "121212",
  "123321", "159753", "789456", "147258", "7777777", "888888", "987654", "lovely", "hello123",
  "freedom", "whatever", "q1w2e3r4", "azerty", "computer", "internet", "cricket", "allah786",
  "786786", "pass123", "password123", "qazwsx", "solo", "mustang", "access", "batman", "flower",
  "hottie", "loveme", "jennifer", "jordan23", "hunter2", "killer", "soccer", "tigger", "secret",
  "google", "samsung", "chocolate", "123qwe", "1q2w3e", "a123456", "abcdef", "abcd1234", "changeme",
]);
