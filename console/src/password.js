// The service's password rule (at least 12 characters, as icatctl and the API count them), checked
// before sending so the person hears it at once; the API checks it again and has the last word.
export const kMinPasswordChars = 12;

// What is wrong with a new password typed twice, in words; "" when nothing is.
export function newPasswordProblem(password, again) {
  if ([...password].length < kMinPasswordChars) return `Choose a password of at least ${kMinPasswordChars} characters.`;
  if (password !== again) return "The two new passwords differ.";
  return "";
}
