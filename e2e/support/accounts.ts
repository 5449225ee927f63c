/** Accounts the suite uses. The admin is created by the server at start from these values. */
export const ADMIN = { matric: "0000/5570000", password: "admin-e2e-pass", name: "Ada Administrator" };

/** Voters the admin creates through the UI. Dates of birth are YYYYMMDD. */
export const VOTER = { name: "Chidi Okafor", matric: "2021/5570101", dob: "20030415" };
export const VOTER_2 = { name: "Ngozi Eze", matric: "2021/5570202", dob: "20020830" };
